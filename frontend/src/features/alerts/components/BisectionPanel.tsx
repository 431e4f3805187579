import { useState } from "react";
import { Link } from "react-router";
import type { Schemas } from "@/api/types";
import { Badge, type Tone } from "@/components/ui/Badge";
import { Button } from "@/components/ui/Button";
import { formatNumber, formatPValue, formatRelative, shortCommit } from "@/lib/format";
import {
  type Bisection,
  useAlertBisections,
  useCancelBisection,
  useStartBisection,
} from "@/features/alerts/api/bisections";
import styles from "@/features/alerts/components/BisectionPanel.module.css";

type Step = Schemas["StepRead"];

const STATE_WORDS: Record<Bisection["state"], [string, Tone]> = {
  running: ["running", "info"],
  found: ["found", "success"],
  cannot_bisect: ["cannot bisect", "warn"],
  failed: ["failed", "fail"],
  cancelled: ["cancelled", "muted"],
};

const VERDICT_TONE: Record<Step["verdict"], Tone> = {
  pending: "info",
  good: "success",
  bad: "fail",
  ambiguous: "warn",
  skipped: "muted",
  failed: "fail",
  cancelled: "muted",
};

function Evidence({ step }: { step: Step }) {
  const e = step.evidence as Record<string, number | string | null> | null | undefined;
  if (!e || typeof e.median !== "number") {
    return e?.message ? <span className="muted">{String(e.message)}</span> : null;
  }
  return (
    <span className="muted">
      median {formatNumber(e.median)} · good end {formatNumber(Number(e.good_median))} · bad end{" "}
      {formatNumber(Number(e.bad_median))} · p {formatPValue(e.p_good as number | null)} vs good,{" "}
      {formatPValue(e.p_bad as number | null)} vs bad
    </span>
  );
}

function StepRow({ step, index }: { step: Step; index: number }) {
  return (
    <li data-testid="bisection-step" data-verdict={step.verdict} className={styles.step}>
      <span>Step {index + 1}</span>
      <span className="mono">{shortCommit(step.commit)}</span>
      {step.subject ? <span className={styles.subject}>{step.subject}</span> : null}
      <Badge tone={VERDICT_TONE[step.verdict]} shape="tag">
        {step.verdict === "pending" ? (step.run_status ?? "queued") : step.verdict}
      </Badge>
      {step.run_id ? <Link to={`/runs/${step.run_id}`}>run #{step.run_id}</Link> : null}
      <Evidence step={step} />
    </li>
  );
}

function OneBisection({
  b,
  onCancel,
  canCancel,
}: {
  b: Bisection;
  onCancel: () => void;
  canCancel: boolean;
}) {
  const [word, tone] = STATE_WORDS[b.state];
  const measured = b.steps.filter((s) => s.verdict !== "pending").length;
  return (
    <div data-testid="bisection" data-state={b.state} data-bisection-id={b.id} className={styles.bisection}>
      <div className={styles.head}>
        <Badge tone={tone} shape="tag">
          {word}
        </Badge>
        <span>
          Bisection #{b.id} of <span className="mono">{shortCommit(b.good_commit)}</span>..
          <span className="mono">{shortCommit(b.bad_commit)}</span>
          {b.commits ? ` · ${b.commits.length} commits` : " · listing the commits…"}
        </span>
        {b.expected_steps != null ? (
          <span data-testid="bisection-progress">
            step {Math.max(measured, b.steps.length)} of ~{b.expected_steps}
          </span>
        ) : null}
        <span className="muted">
          started {formatRelative(b.created_at)} by {b.created_by}
        </span>
        {b.state === "running" && canCancel ? (
          <Button size="small" onClick={onCancel}>
            Cancel bisection
          </Button>
        ) : null}
      </div>
      {b.commits && b.state === "running" ? (
        <p data-testid="bisection-range" className={styles.range}>
          Narrowed to <span className="mono">{shortCommit(b.range_good)}</span>..
          <span className="mono">{shortCommit(b.range_bad)}</span> · {b.remaining} commits left between them
        </p>
      ) : null}
      {b.steps.length ? (
        <ol className={styles.steps}>
          {b.steps.map((s, i) => (
            <StepRow key={s.id} step={s} index={i} />
          ))}
        </ol>
      ) : null}
      {b.culprit ? (
        <p data-testid="bisection-culprit" className={styles.culprit}>
          First bad commit <span className="mono">{shortCommit(b.culprit.sha)}</span> “{b.culprit.subject}” by{" "}
          {b.culprit.author}
        </p>
      ) : null}
      {b.message && b.state !== "found" ? <p data-testid="bisection-message">{b.message}</p> : null}
      {b.skipped.length ? (
        <p className="muted">Skipped (build failed): {b.skipped.map(shortCommit).join(", ")}</p>
      ) : null}
    </div>
  );
}

/** An alert's bisections, live while one runs: its range, each midpoint's verdict against both
 * ends, the narrowed range and the first bad commit; start one, or cancel the running one. */
export function BisectionPanel({ alertId, signedIn }: { alertId: number; signedIn: boolean }) {
  const [open, setOpen] = useState(false);
  const { data, error } = useAlertBisections(alertId, open);
  const start = useStartBisection(alertId);
  const cancel = useCancelBisection(alertId);
  const running = data?.some((b) => b.state === "running") ?? false;
  return (
    <details
      className={styles.panel}
      onToggle={(e) => setOpen(e.currentTarget.open)}
      data-testid="bisections"
    >
      <summary>Bisections</summary>
      {error ? <p role="alert">{error.message}</p> : null}
      {data && !data.length ? <p className="muted">Not bisected yet.</p> : null}
      {data?.map((b) => (
        <OneBisection key={b.id} b={b} canCancel={signedIn} onCancel={() => cancel.mutate(b.id)} />
      ))}
      {signedIn && data && !running ? (
        <Button size="small" disabled={start.isPending} onClick={() => start.mutate()}>
          {start.isPending ? "Starting…" : "Bisect this range"}
        </Button>
      ) : null}
      {start.error ? <p role="alert">{start.error.message}</p> : null}
    </details>
  );
}
