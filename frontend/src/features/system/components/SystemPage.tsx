import { useMemo, useState } from "react";
import type { Schemas } from "@/api/types";
import { VerdictLegend } from "@/components/charts/VerdictLegend";
import { Page } from "@/components/ui/Page";
import { Empty, ErrorState, Loading } from "@/components/ui/States";
import { usePrefetchSeries } from "@/features/system/api/getSeries";
import { useSeriesBatch, type BatchKey } from "@/features/system/api/getSeriesBatch";
import { useSystem } from "@/features/system/api/getSystem";
import { useSystemRuns } from "@/features/system/api/getSystemRuns";
import { BenchmarkGrid, BenchmarkGroup } from "@/features/system/components/BenchmarkGroup";
import { SeriesBoard } from "@/features/system/components/SeriesBoard";
import { FilterBar } from "@/features/system/components/FilterBar";
import { SeriesControls } from "@/features/system/components/SeriesControls";
import { SystemFilters } from "@/features/system/components/SystemFilters";
import { SystemHeader } from "@/features/system/components/SystemHeader";
import { focusedBenchmark, sortBenchmarks } from "@/features/system/hooks/benchmarks";
import { usePageReady } from "@/features/system/hooks/pageReady";
import { timeWindow, type SystemSearch } from "@/features/system/hooks/useSystemSearch";

interface SystemPageProps {
  slug: string;
  search: SystemSearch;
  onSearch: (patch: Partial<SystemSearch>) => void;
}

function Charts({
  system: s,
  base,
  search,
}: {
  system: Schemas["SystemDetail"];
  base: BaseKey;
  search: SystemSearch;
}) {
  const benchmarks = sortBenchmarks(s.benchmarks);
  const focusId = focusedBenchmark(benchmarks, search);
  const nameCount = new Map<string, number>();
  for (const b of benchmarks) nameCount.set(b.name, (nameCount.get(b.name) ?? 0) + 1);
  const unique = (b: Schemas["BenchmarkRead"]) => nameCount.get(b.name) === 1;
  const only = s.metrics.length === 1 ? s.metrics[0] : undefined;
  if (benchmarks.length === 0 || s.metrics.length === 0)
    return <Empty title="No benchmarks yet">Results uploaded for this system will be charted here.</Empty>;
  if (only)
    return (
      <BenchmarkGrid
        benchmarks={benchmarks}
        metric={only}
        base={base}
        focusId={!search.metric || search.metric === only.name ? focusId : null}
        isUnique={unique}
      />
    );
  return benchmarks.map((b) => (
    <BenchmarkGroup
      key={b.id}
      benchmark={b}
      metrics={s.metrics}
      base={base}
      unique={unique(b)}
      focusMetric={b.id === focusId ? search.metric : null}
    />
  ));
}

/** The compact bar's words: which branch, testbed, profile and time range the charts show. */
function filterSummary(s: SystemSearch): string {
  const range =
    s.from || s.to ? `${s.from ?? "…"} – ${s.to ?? "…"}` : s.range === "all" ? "all time" : s.range;
  return [s.branch, s.testbed ?? "latest testbed", s.profile, range].filter(Boolean).join(" · ");
}

type BaseKey = ReturnType<typeof useBaseKey>;

function useBaseKey(slug: string, search: SystemSearch) {
  const [from, to] = useMemo(() => timeWindow(search), [search]);
  return { system: slug, branch: search.branch, testbed: search.testbed, from, to, profile: search.profile };
}

/** The page since the batch endpoint: one request for every series, charts drawn near the viewport. */
function BatchCharts({
  system,
  batchKey,
  search,
}: {
  system: Schemas["SystemDetail"];
  batchKey: BatchKey;
  search: SystemSearch;
}) {
  const batch = useSeriesBatch(batchKey);
  usePageReady(batch.isSuccess);
  if (batch.isPending) return <Loading label="Loading series…" />;
  if (batch.isError) return <ErrorState error={batch.error} onRetry={() => void batch.refetch()} />;
  return <SeriesBoard system={system} batch={batch.data} search={search} />;
}

/** A system's trends: every benchmark × metric chart, filtered by branch, testbed, profile and time. */
export function SystemPage({ slug, search, onSearch }: SystemPageProps) {
  const single = search.charts === "single";
  // The run list (for the profile filter) is only fetched once someone uses that filter.
  const [profileWanted, setProfileWanted] = useState(false);
  const system = useSystem(slug);
  const base = useBaseKey(slug, search);
  // A name-only key is ambiguous when the link names parameters (several benchmarks share the
  // name): the API would refuse it (422), so such a chart waits for the system to load.
  usePrefetchSeries(
    single && search.benchmark && search.metric && !search.params
      ? { ...base, benchmark: search.benchmark, benchmarkId: null, metric: search.metric }
      : null,
  );
  const runs = useSystemRuns(slug, search.branch, single && (Boolean(search.profile) || profileWanted));
  const batchKey: BatchKey = { ...base };
  // The same key as BatchCharts': the controls read the views of the answer the page shows.
  const batch = useSeriesBatch(batchKey);
  // The profile filter's options: the profiles of recent runs (the series are filtered on the server).
  const profiles = useMemo(() => {
    const items = runs.data?.items ?? [];
    return [...new Set(items.map((r) => r.profile).filter((p): p is string => Boolean(p)))].sort();
  }, [runs.data]);

  if (system.isPending) return <Loading label="Loading system…" />;
  if (system.isError)
    return (
      <ErrorState error={system.error} onRetry={() => void system.refetch()} missing={`System ${slug}`} />
    );
  return (
    <Page>
      <SystemHeader system={system.data} />
      <FilterBar summary={filterSummary(search)}>
        <SystemFilters
          system={system.data}
          profiles={profiles}
          search={search}
          onSearch={onSearch}
          onWantProfiles={() => setProfileWanted(true)}
          viewPicker={!single}
        />
        {single ? null : <SeriesControls batch={batch.data} search={search} onSearch={onSearch} />}
        <VerdictLegend />
      </FilterBar>
      {single ? (
        <Charts system={system.data} base={base} search={search} />
      ) : (
        <BatchCharts system={system.data} batchKey={batchKey} search={search} />
      )}
    </Page>
  );
}
