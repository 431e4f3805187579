import { Link, useLocation } from "react-router";
import type { Schemas } from "@/api/client";
import { StatusBadge } from "@/components/ui/VerdictBadge";
import { formatChange, formatParameters, formatRelative, shortCommit } from "@/lib/format";

interface AlertItemProps {
  alert: Schemas["AlertRead"];
  signedIn: boolean;
  pending: boolean;
  onAcknowledge: (id: number) => void;
}

export function AlertItem({ alert: a, signedIn, pending, onAcknowledge }: AlertItemProps) {
  const location = useLocation();
  const params = formatParameters(a.parameters);
  return (
    <li className="alert-item card" data-testid="alert" data-alert-id={a.id} data-status={a.status}>
      <div className="alert-main">
        <StatusBadge status={a.status} />
        <Link to={a.series_url} className="alert-title">
          <strong>{a.system}</strong> · <span data-testid="alert-benchmark">{a.benchmark}</span>
          {params ? <span className="muted"> ({params})</span> : null} · {a.metric}
        </Link>
        <span className="change change-fail">{formatChange(a.change_pct)}</span>
      </div>
      <p className="explanation">{a.explanation}</p>
      <div className="alert-foot small muted">
        <span>
          Branch <span className="mono">{a.branch}</span> · testbed {a.testbed} · run{" "}
          <Link to={`/runs/${a.run_id}`}>
            #{a.run_id} ({shortCommit(a.commit)})
          </Link>{" "}
          · opened {formatRelative(a.opened_at)}
          {a.acknowledged_at
            ? ` · acknowledged ${formatRelative(a.acknowledged_at)} by ${a.acknowledged_by ?? "someone"}`
            : ""}
          {a.resolved_at ? ` · resolved ${formatRelative(a.resolved_at)}` : ""}
        </span>
        {a.status === "open" ? (
          signedIn ? (
            <button
              type="button"
              className="btn btn-small"
              disabled={pending}
              onClick={() => onAcknowledge(a.id)}
            >
              {pending ? "Acknowledging…" : "Acknowledge"}
            </button>
          ) : (
            <Link
              to={`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`}
              className="small"
            >
              Sign in to acknowledge
            </Link>
          )
        ) : null}
      </div>
    </li>
  );
}
