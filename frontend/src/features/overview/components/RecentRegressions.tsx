import { Link } from "react-router";
import { Change } from "@/components/ui/Change";
import { StepLine } from "@/components/ui/StepLine";
import { Empty, ErrorState, Loading } from "@/components/ui/States";
import { StatusBadge } from "@/components/ui/VerdictBadge";
import { formatParameters, formatRelative, shortCommit } from "@/lib/format";
import { useRecentRegressions } from "@/features/overview/api/getRecentRegressions";
import styles from "@/features/overview/components/RecentRegressions.module.css";

/** Open and acknowledged alerts, newest first: level, commit range, how confirmed, the sentence. */
export function RecentRegressions() {
  const alerts = useRecentRegressions();
  if (alerts.isPending) return <Loading label="Loading regressions…" />;
  if (alerts.isError) return <ErrorState error={alerts.error} onRetry={() => void alerts.refetch()} />;
  if (!alerts.data.length)
    return <Empty title="No open regressions">Every series is within its thresholds.</Empty>;
  return (
    <ul className={styles.list} data-testid="recent-regressions">
      {alerts.data.map((a) => (
        <li
          key={a.id}
          className={styles.item}
          data-testid="regression"
          data-alert-id={a.id}
          data-level={a.level}
        >
          <div className={styles.main}>
            <StatusBadge status={a.status} />
            <Link to={a.series_url} className={styles.title}>
              <strong>{a.system}</strong> · {a.benchmark}
              {formatParameters(a.parameters) ? (
                <span className="muted"> ({formatParameters(a.parameters)})</span>
              ) : null}{" "}
              · {a.metric}
            </Link>
            <Change pct={a.change_pct} direction={a.direction} level={a.level} />
          </div>
          <div className={styles.step}>
            <StepLine step={a} />
          </div>
          <div className="small muted">
            {a.explanation} Branch <span className="mono">{a.branch}</span>, first bad run{" "}
            <Link to={`/runs/${a.run_id}`} className="mono">
              #{a.run_id} ({shortCommit(a.commit)})
            </Link>
            , opened {formatRelative(a.opened_at)}.
          </div>
        </li>
      ))}
    </ul>
  );
}
