import { Link, useLocation } from "react-router";
import type { Schemas } from "@/api/types";
import { Badge } from "@/components/ui/Badge";
import { Button } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { Change } from "@/components/ui/Change";
import { StepLine } from "@/components/ui/StepLine";
import { StatusBadge } from "@/components/ui/VerdictBadge";
import { formatParameters, formatRelative, shortCommit } from "@/lib/format";
import styles from "@/features/alerts/components/AlertItem.module.css";
import { BisectionPanel } from "@/features/alerts/components/BisectionPanel";
import { RootCause } from "@/features/alerts/components/RootCause";

interface AlertItemProps {
  alert: Schemas["AlertRead"];
  signedIn: boolean;
  pending: boolean;
  onAcknowledge: (id: number) => void;
}

function History({ alert: a }: { alert: Schemas["AlertRead"] }) {
  return (
    <span>
      Branch <span className="mono">{a.branch}</span> · testbed {a.testbed} ·{" "}
      {a.kind === "drift" ? `drift over ${a.window_runs ?? "many"} runs from run` : "first bad run"}{" "}
      <Link to={`/runs/${a.run_id}`}>
        #{a.run_id} ({shortCommit(a.commit)})
      </Link>{" "}
      {a.last_good_run_id ? (
        <>
          ·{" "}
          <Link
            to={`/compare?system=${encodeURIComponent(a.system)}&base=${a.last_good_run_id}&head=${a.run_id}`}
            data-testid="alert-compare"
          >
            compare last good #{a.last_good_run_id} with it
          </Link>{" "}
        </>
      ) : null}
      {a.commits_url ? (
        <>
          ·{" "}
          <a href={a.commits_url} target="_blank" rel="noreferrer noopener" data-testid="alert-commits">
            commits {shortCommit(a.last_good_commit)}…{shortCommit(a.commit)}
          </a>{" "}
        </>
      ) : null}
      · opened {formatRelative(a.opened_at)}
      {a.acknowledged_at
        ? ` · acknowledged ${formatRelative(a.acknowledged_at)} by ${a.acknowledged_by ?? "someone"}`
        : ""}
      {a.resolved_at ? ` · resolved ${formatRelative(a.resolved_at)}` : ""}
    </span>
  );
}

/** One alert: what regressed, its level, commit range and confirmation, the sentence, and Acknowledge. */
export function AlertItem({ alert: a, signedIn, pending, onAcknowledge }: AlertItemProps) {
  const location = useLocation();
  const params = formatParameters(a.parameters);
  return (
    <Card
      as="li"
      className={styles.item}
      data-testid="alert"
      data-alert-id={a.id}
      data-status={a.status}
      data-level={a.level}
      data-kind={a.kind}
    >
      <div className={styles.main}>
        <StatusBadge status={a.status} />
        {a.kind === "drift" ? (
          <span data-testid="alert-drift">
            <Badge tone="info" shape="tag" title="A slow drift over a long window, not a single step">
              drift
            </Badge>
          </span>
        ) : null}
        <Link to={a.series_url} className={styles.title}>
          <strong>{a.system}</strong> · <span data-testid="alert-benchmark">{a.benchmark}</span>
          {params ? <span className="muted"> ({params})</span> : null} · {a.metric}
        </Link>
        <Change pct={a.change_pct} direction={a.direction} level={a.level} />
      </div>
      <div className={styles.step}>
        <StepLine step={a} />
      </div>
      <p className={styles.explanation}>{a.explanation}</p>
      {a.first_bad_commit ? (
        <p className={styles.culprit} data-testid="alert-first-bad-commit">
          Bisected to <span className="mono">{shortCommit(a.first_bad_commit.sha)}</span> “
          {a.first_bad_commit.subject}” by {a.first_bad_commit.author}
        </p>
      ) : null}
      {a.root_cause ? <RootCause cause={a.root_cause} /> : null}
      <div className={styles.foot}>
        <History alert={a} />
        {a.status !== "open" ? null : signedIn ? (
          <Button size="small" disabled={pending} onClick={() => onAcknowledge(a.id)}>
            {pending ? "Acknowledging…" : "Acknowledge"}
          </Button>
        ) : (
          <Link to={`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`}>
            Sign in to acknowledge
          </Link>
        )}
      </div>
      <BisectionPanel alertId={a.id} signedIn={signedIn} />
    </Card>
  );
}
