import { Link } from "react-router";
import type { Schemas } from "@/api/client";
import { StatusBadge } from "@/components/ui/VerdictBadge";
import { formatDateTime, formatDuration } from "@/lib/format";

function environmentText(env: Record<string, unknown> | null | undefined): string {
  if (!env) return "—";
  const parts: string[] = [];
  if (env.os) parts.push(String(env.os));
  if (env.cpu) parts.push(`${String(env.cpu)}${env.cores ? ` × ${String(env.cores)} cores` : ""}`);
  if (env.memory_mb) parts.push(`${Math.round(Number(env.memory_mb) / 1024)} GiB RAM`);
  if (env.compiler)
    parts.push(`${String(env.compiler)} ${env.compiler_version ? String(env.compiler_version) : ""}`.trim());
  return parts.join(" · ") || "—";
}

export function RunHeader({ run }: { run: Schemas["RunDetail"] }) {
  const counts = run.counts ?? {};
  return (
    <div className="page-head">
      <div className="crumbs">
        <Link to="/">Overview</Link> /{" "}
        <Link to={`/systems/${encodeURIComponent(run.system)}`}>{run.system}</Link> / run #{run.id}
      </div>
      <h1>
        Run #{run.id} <StatusBadge status={run.status} />
      </h1>
      {run.message ? <div className="banner banner-warn">{run.message}</div> : null}
      <dl className="run-meta">
        <div>
          <dt>System</dt>
          <dd>
            <Link to={`/systems/${encodeURIComponent(run.system)}?branch=${encodeURIComponent(run.branch)}`}>
              {run.system}
            </Link>
          </dd>
        </div>
        <div>
          <dt>Commit</dt>
          <dd className="mono">{run.commit ?? "—"}</dd>
        </div>
        <div>
          <dt>Branch</dt>
          <dd className="mono">{run.branch}</dd>
        </div>
        <div>
          <dt>Trigger</dt>
          <dd>{run.trigger}</dd>
        </div>
        <div>
          <dt>Profile</dt>
          <dd>{run.profile ?? "—"}</dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>{formatDateTime(run.started_at)}</dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{formatDuration(run.started_at, run.finished_at)}</dd>
        </div>
        <div>
          <dt>Testbed</dt>
          <dd>{run.testbed ?? "—"}</dd>
        </div>
        <div className="wide">
          <dt>Environment</dt>
          <dd>{environmentText(run.environment)}</dd>
        </div>
        <div>
          <dt>Verdicts</dt>
          <dd>
            {Object.entries(counts)
              .map(([k, v]) => `${v} ${k.replace("_", " ")}`)
              .join(", ") || "—"}
          </dd>
        </div>
      </dl>
      <p className="small">
        <Link to={`/compare?system=${encodeURIComponent(run.system)}&head=${run.id}`}>
          Compare this run with another…
        </Link>
      </p>
    </div>
  );
}
