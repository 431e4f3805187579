import type { Level } from "@/api/types";
import { Link } from "react-router";
import styles from "@/components/ui/StepLine.module.css";
import { HealthBadge } from "@/components/ui/HealthBadge";
import { shortCommit } from "@/lib/format";
import { confirmedByWords } from "@/lib/stage";
import { levelHealth } from "@/lib/status";

/** What an alert says about its step (the fields of AlertRead this line reads). */
export interface StepFields {
  level: Level;
  run_id: number;
  commit: string | null;
  last_good_run_id?: number | null;
  last_good_commit?: string | null;
  confirmed_by?: string | null;
}

function RunCommit({ runId, commit, testId }: { runId: number; commit: string | null; testId: string }) {
  return (
    <Link to={`/runs/${runId}`} className="mono" data-testid={testId} title={`run #${runId}`}>
      {commit ? shortCommit(commit) : `run #${runId}`}
    </Link>
  );
}

/** "abc..def": the commits from the last good run to the step's first bad one, each linking to its run. */
export function CommitRange({ step }: { step: StepFields }) {
  const good = step.last_good_run_id;
  return (
    <span className={styles.range} data-testid="commit-range">
      {good !== null && good !== undefined ? (
        <>
          <RunCommit runId={good} commit={step.last_good_commit ?? null} testId="last-good" />
          ..
        </>
      ) : (
        <span className="muted">(no earlier run) </span>
      )}
      <RunCommit runId={step.run_id} commit={step.commit} testId="first-bad" />
    </span>
  );
}

/** A confirmed step in one line: its level, the commit range last good..first bad, and how it was confirmed. */
export function StepLine({ step }: { step: StepFields }) {
  return (
    <span className={styles.line} data-testid="step-line">
      <HealthBadge health={levelHealth(step.level)} />
      <span>
        commits <CommitRange step={step} />
      </span>
      <span className="muted" data-testid="confirmed-by">
        confirmed by {confirmedByWords(step.confirmed_by)}
      </span>
    </span>
  );
}
