import { Link } from "react-router";
import { isActiveRun, type Schemas } from "@/api/types";
import { Section } from "@/components/ui/Page";
import { StatusBadge } from "@/components/ui/VerdictBadge";
import styles from "@/features/run/components/RerunsPanel.module.css";

type RunSummary = Schemas["RunSummary"];

/** The re-runs queued to confirm this run's suspected points: "re-run 1 of 2: completed", each linking to its run. */
export function RerunsPanel({ reruns }: { reruns: readonly RunSummary[] }) {
  if (!reruns.length) return null;
  const sorted = [...reruns].sort((a, b) => a.id - b.id);
  const waiting = sorted.filter((r) => isActiveRun(r.status)).length;
  return (
    <Section title="Re-runs" testId="reruns">
      <p className="muted small">
        This run had suspected changes, so the same commit runs again on the same testbed. A change is
        confirmed, and its alert opens, only if the re-runs are still worse; otherwise it is dismissed.
      </p>
      <ol className={styles.list}>
        {sorted.map((r, i) => (
          <li key={r.id} data-testid="rerun" data-status={r.status} data-run={r.id}>
            <Link to={`/runs/${r.id}`} title={`run #${r.id}`}>
              re-run {i + 1} of {sorted.length}
            </Link>
            : <StatusBadge status={r.status} />
          </li>
        ))}
      </ol>
      <p className="small" data-testid="reruns-state">
        {waiting
          ? `Waiting for ${waiting} re-run${waiting === 1 ? "" : "s"}; this page updates by itself.`
          : "Every re-run has ended: each measurement's stage says whether its change was confirmed or dismissed."}
      </p>
    </Section>
  );
}

/** On a re-run's own page: which run it re-checks. */
export function RerunOf({ runId }: { runId: number }) {
  return (
    <p className={styles.rerunOf} data-testid="rerun-of">
      This is a re-run: it re-checks the suspected changes of <Link to={`/runs/${runId}`}>run #{runId}</Link>{" "}
      on the same commit. It does not enter the series&apos; history or baselines.
    </p>
  );
}
