import { useMemo, useState } from "react";
import { Link } from "react-router";
import type { Schemas } from "@/api/client";
import { VerdictLegend } from "@/components/charts/VerdictLegend";
import { Empty, ErrorState, Loading } from "@/components/ui/States";
import { StatusBadge } from "@/components/ui/VerdictBadge";
import { formatDateTime, formatParameters, formatRelative, shortCommit } from "@/lib/format";
import { usePrefetchSeries } from "@/features/system/api/getSeries";
import { useSystem } from "@/features/system/api/getSystem";
import { useSystemRuns } from "@/features/system/api/getSystemRuns";
import { BenchmarkGroup } from "@/features/system/components/BenchmarkGroup";
import { SeriesCard } from "@/features/system/components/SeriesCard";
import { RunBenchmarksDialog } from "@/features/system/components/RunBenchmarksDialog";
import { SystemFilters } from "@/features/system/components/SystemFilters";
import { timeWindow, type SystemSearch } from "@/features/system/hooks/useSystemSearch";

interface SystemPageProps {
  slug: string;
  search: SystemSearch;
  onSearch: (patch: Partial<SystemSearch>) => void;
}

function sameParams(a: Record<string, unknown>, json: string | null): boolean {
  if (!json) return true;
  try {
    const b = JSON.parse(json) as Record<string, unknown>;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => String(a[k]) === String(b[k]));
  } catch {
    return true;
  }
}

/** The benchmark the URL asks to focus: the first of that name whose parameters match. */
function focusedBenchmark(benchmarks: readonly Schemas["BenchmarkRead"][], s: SystemSearch): number | null {
  if (!s.benchmark) return null;
  return benchmarks.find((b) => b.name === s.benchmark && sameParams(b.parameters, s.params))?.id ?? null;
}

export function SystemPage({ slug, search, onSearch }: SystemPageProps) {
  // The run list (for the profile filter) is only fetched once someone uses that filter.
  const [profileWanted, setProfileWanted] = useState(false);
  const system = useSystem(slug);
  const [from, to] = useMemo(() => timeWindow(search), [search]);
  const base = {
    system: slug,
    branch: search.branch,
    testbed: search.testbed,
    from,
    to,
    profile: search.profile,
  };
  usePrefetchSeries(
    search.benchmark && search.metric
      ? { ...base, benchmark: search.benchmark, benchmarkId: null, metric: search.metric }
      : null,
  );
  const runs = useSystemRuns(slug, search.branch, Boolean(search.profile) || profileWanted);
  // The profile filter's options: the profiles of recent runs (the series are filtered on the server).
  const profiles = useMemo(() => {
    const items = runs.data?.items ?? [];
    return [...new Set(items.map((r) => r.profile).filter((p): p is string => Boolean(p)))].sort();
  }, [runs.data]);

  if (system.isPending) return <Loading label="Loading system…" />;
  if (system.isError) return <ErrorState error={system.error} onRetry={() => void system.refetch()} />;
  const s = system.data;
  const benchmarks = [...s.benchmarks].sort(
    (a, b) =>
      a.name.localeCompare(b.name) ||
      JSON.stringify(a.parameters).localeCompare(JSON.stringify(b.parameters)),
  );
  const focusId = focusedBenchmark(benchmarks, search);
  const nameCount = new Map<string, number>();
  for (const b of benchmarks) nameCount.set(b.name, (nameCount.get(b.name) ?? 0) + 1);
  return (
    <div className="page">
      <div className="page-head">
        <div className="crumbs">
          <Link to="/">Overview</Link> / <span>{s.name}</span>
        </div>
        <h1>
          {s.name} {s.language ? <span className="lang">{s.language}</span> : null}
        </h1>
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
              <Link to={`/alerts?system=${encodeURIComponent(slug)}`}>
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
        <div className="page-actions">
          <RunBenchmarksDialog system={s} />
          <Link className="btn" to={`/runs?system=${encodeURIComponent(slug)}`}>
            Runs
          </Link>
        </div>
      </div>
      <div className="toolbar">
        <SystemFilters
          system={s}
          profiles={profiles}
          search={search}
          onSearch={onSearch}
          onWantProfiles={() => setProfileWanted(true)}
        />
        <VerdictLegend />
      </div>
      {benchmarks.length === 0 || s.metrics.length === 0 ? (
        <Empty title="No benchmarks yet">Results uploaded for this system will be charted here.</Empty>
      ) : s.metrics.length === 1 ? (
        // One metric per benchmark: a grid of benchmarks reads better than a group per chart.
        <div className="chart-grid section">
          {benchmarks.map((b) => (
            <SeriesCard
              key={b.id}
              seriesKey={{
                ...base,
                benchmark: b.name,
                benchmarkId: nameCount.get(b.name) === 1 ? null : b.id,
                metric: s.metrics[0]!.name,
              }}
              metric={s.metrics[0]!}
              focused={b.id === focusId && (!search.metric || search.metric === s.metrics[0]!.name)}
              title={
                <>
                  {b.name}{" "}
                  {formatParameters(b.parameters) ? (
                    <span className="bench-params">{formatParameters(b.parameters)}</span>
                  ) : null}
                </>
              }
            />
          ))}
        </div>
      ) : (
        benchmarks.map((b) => (
          <BenchmarkGroup
            key={b.id}
            benchmark={b}
            metrics={s.metrics}
            base={base}
            unique={nameCount.get(b.name) === 1}
            focusMetric={b.id === focusId ? search.metric : null}
          />
        ))
      )}
    </div>
  );
}
