import { Link } from "react-router";
import type { Schemas } from "@/api/types";
import { Badge } from "@/components/ui/Badge";
import { ButtonLink } from "@/components/ui/Button";
import { HealthBadge } from "@/components/ui/HealthBadge";
import { PageActions, PageHeader } from "@/components/ui/Page";
import { StatusBadge } from "@/components/ui/VerdictBadge";
import { formatDateTime, formatRelative, shortCommit } from "@/lib/format";
import { systemHealth, worstAlertLevel } from "@/lib/status";
import { RunBenchmarksDialog } from "@/features/system/components/RunBenchmarksDialog";

/** The system's name, language, last run, open alerts, next scheduled run; Run benchmarks, Runs. */
export function SystemHeader({ system: s }: { system: Schemas["SystemDetail"] }) {
  const slug = encodeURIComponent(s.slug);
  const title = (
    <>
      {s.name}{" "}
      <HealthBadge
        health={systemHealth({
          counts: s.latest_counts,
          openAlerts: s.open_alerts,
          alertLevel: worstAlertLevel(s.alerts),
          hasRuns: Boolean(s.latest_run),
          headlineLevel: s.headline ? s.headline.latest_level : undefined,
        })}
      />{" "}
      {s.language ? <Badge tone="info">{s.language}</Badge> : null}
    </>
  );
  const crumbs = (
    <>
      <Link to="/">Overview</Link> / <span>{s.name}</span>
    </>
  );
  return (
    <PageHeader title={title} crumbs={crumbs}>
      {s.description ? <p className="muted">{s.description}</p> : null}
      <p className="small">
        {s.latest_run ? (
          <>
            Last run{" "}
            <Link to={`/runs/${s.latest_run.id}`} className="mono">
              {shortCommit(s.latest_run.commit)}
            </Link>{" "}
            {formatRelative(s.latest_run.started_at)} <StatusBadge status={s.latest_run.status} />
          </>
        ) : (
          "No runs yet."
        )}
        {s.open_alerts ? (
          <>
            {" · "}
            <Link to={`/alerts?system=${slug}`}>
              {s.open_alerts} open alert{s.open_alerts === 1 ? "" : "s"}
            </Link>
          </>
        ) : null}
        {s.next_scheduled_at ? (
          <>
            {" · "}
            <span data-testid="next-scheduled">
              next scheduled {s.next_scheduled_profile} run {formatDateTime(s.next_scheduled_at)}
            </span>
          </>
        ) : null}
      </p>
      <PageActions>
        <RunBenchmarksDialog system={s} />
        <ButtonLink to={`/runs?system=${slug}`}>Runs</ButtonLink>
        <ButtonLink to={`/systems/${slug}/backtest`}>Backtest</ButtonLink>
      </PageActions>
    </PageHeader>
  );
}
