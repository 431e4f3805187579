import { Link } from "react-router";
import type { Schemas } from "@/api/types";
import { Banner } from "@/components/ui/Banner";
import { PageHeader } from "@/components/ui/Page";
import { HealthBadge } from "@/components/ui/HealthBadge";
import { StatusBadge } from "@/components/ui/VerdictBadge";
import { systemHealth } from "@/lib/status";
import { formatDateTime, formatDuration } from "@/lib/format";
import styles from "@/features/run/components/RunHeader.module.css";

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

/** The run's heading, its facts (commit, branch, testbed, environment…) and its verdict counts. */
export function RunHeader({ run }: { run: Schemas["RunDetail"] }) {
  const counts = run.counts ?? {};
  const crumbs = (
    <>
      <Link to="/">Overview</Link> /{" "}
      <Link to={`/systems/${encodeURIComponent(run.system)}`}>{run.system}</Link> / run #{run.id}
    </>
  );
  return (
    <PageHeader
      crumbs={crumbs}
      title={
        <>
          Run #{run.id} <StatusBadge status={run.status} />{" "}
          {run.status === "completed" ? (
            <HealthBadge health={systemHealth({ counts, openAlerts: 0, hasRuns: true })} />
          ) : null}
        </>
      }
    >
      {run.message ? <Banner tone="warn">{run.message}</Banner> : null}
      <dl className={styles.facts}>
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
        <div className={styles.wide}>
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
    </PageHeader>
  );
}
