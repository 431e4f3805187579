import { Link } from "react-router";
import { Empty, ErrorState, Loading } from "@/components/ui/States";
import { StatusBadge } from "@/components/ui/VerdictBadge";
import { formatChange, formatParameters, formatRelative, shortCommit } from "@/lib/format";
import { useRecentRegressions } from "@/features/overview/api/getRecentRegressions";

export function RecentRegressions() {
  const alerts = useRecentRegressions();
  if (alerts.isPending) return <Loading label="Loading regressions…" />;
  if (alerts.isError) return <ErrorState error={alerts.error} onRetry={() => void alerts.refetch()} />;
  if (!alerts.data.length)
    return <Empty title="No open regressions">Every series is within its thresholds.</Empty>;
  return (
    <ul className="regression-list" data-testid="recent-regressions">
      {alerts.data.map((a) => (
        <li key={a.id} className="regression">
          <div className="regression-main">
            <StatusBadge status={a.status} />
            <Link to={a.series_url} className="regression-title">
              <strong>{a.system}</strong> · {a.benchmark}
              {formatParameters(a.parameters) ? (
                <span className="muted"> ({formatParameters(a.parameters)})</span>
              ) : null}{" "}
              · {a.metric}
            </Link>
            <span className="change change-fail">{formatChange(a.change_pct)}</span>
          </div>
          <div className="small muted">
            {a.explanation} Branch <span className="mono">{a.branch}</span>, run{" "}
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
