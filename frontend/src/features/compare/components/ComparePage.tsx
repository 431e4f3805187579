import { useMemo } from "react";
import { lazyModule } from "@/hooks/useLazyModule";
import { Link } from "react-router";
import { Empty, ErrorState, Loading } from "@/components/ui/States";
import { formatParameters, shortCommit } from "@/lib/format";
import { useComparison } from "@/features/compare/api/getComparison";
import { useRunChoices } from "@/features/compare/api/getRunChoices";
import { useSystemNames } from "@/features/compare/api/getSystemNames";
import { CompareTable } from "@/features/compare/components/CompareTable";
import { RunPicker } from "@/features/compare/components/RunPicker";
import type { CompareSearch } from "@/features/compare/hooks/useCompareSearch";

const changeBarChart = lazyModule(() => import("@/components/charts/ChangeBarChart"));

interface ComparePageProps {
  search: CompareSearch;
  onSearch: (patch: Partial<CompareSearch>) => void;
}

export function ComparePage({ search, onSearch }: ComparePageProps) {
  const systems = useSystemNames();
  const ChangeBarChart = changeBarChart.useModule()?.ChangeBarChart;
  const runs = useRunChoices(search.system);
  const items = useMemo(() => runs.data?.items ?? [], [runs.data]);
  // With only a head picked, compare with the run before it on the same branch.
  const head = items.find((r) => r.id === search.head);
  const previous = head
    ? items.find((r) => r.branch === head.branch && r.started_at < head.started_at)
    : undefined;
  const base = search.base ?? previous?.id ?? null;
  const comparison = useComparison(base, search.head);
  const rows = useMemo(
    () =>
      [...(comparison.data?.rows ?? [])].sort(
        (a, b) => (b.change_pct ?? -Infinity) - (a.change_pct ?? -Infinity),
      ),
    [comparison.data],
  );

  // Short bar labels: benchmark · metric, with parameters only where the name alone is ambiguous.
  const labels = new Map(
    rows.map((r) => {
      const short = `${r.benchmark} · ${r.metric}`;
      const ambiguous = rows.filter((o) => `${o.benchmark} · ${o.metric}` === short).length > 1;
      return [r, ambiguous ? `${short} (${formatParameters(r.parameters)})` : short] as const;
    }),
  );
  return (
    <div className="page">
      <div className="page-head">
        <h1>Compare runs</h1>
        <p className="muted">Pick two runs of one system: every series they share, side by side.</p>
      </div>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          System
          <select
            value={search.system ?? ""}
            onChange={(e) => onSearch({ system: e.target.value || null, base: null, head: null })}
          >
            <option value="">Pick a system…</option>
            {(systems.data ?? []).map((s) => (
              <option key={s.slug} value={s.slug}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <RunPicker label="Base" runs={items} value={base} onChange={(id) => onSearch({ base: id })} />
        <RunPicker label="Head" runs={items} value={search.head} onChange={(id) => onSearch({ head: id })} />
      </form>
      {systems.isError ? <ErrorState error={systems.error} /> : null}
      {runs.isError ? <ErrorState error={runs.error} /> : null}
      {base === null || search.head === null ? (
        <Empty title="Pick two runs">Choose a system, then a base run and a head run.</Empty>
      ) : comparison.isPending ? (
        <Loading label="Comparing…" />
      ) : comparison.isError ? (
        <ErrorState error={comparison.error} onRetry={() => void comparison.refetch()} />
      ) : rows.length === 0 ? (
        <Empty title="These runs share no series">
          Pick two runs of the same system, benchmarks and testbed.
        </Empty>
      ) : (
        <>
          <p>
            <Link to={`/runs/${comparison.data.base.id}`}>base #{comparison.data.base.id}</Link>{" "}
            <span className="mono">{shortCommit(comparison.data.base.commit)}</span> (
            {comparison.data.base.branch}) →{" "}
            <Link to={`/runs/${comparison.data.head.id}`}>head #{comparison.data.head.id}</Link>{" "}
            <span className="mono">{shortCommit(comparison.data.head.commit)}</span> (
            {comparison.data.head.branch})
          </p>
          <section className="card">
            <h2 className="section-title">Change per series (positive is worse)</h2>
            {!ChangeBarChart ? (
              <Loading label="Loading chart…" />
            ) : (
              <ChangeBarChart
                rows={rows.map((r) => ({
                  label: labels.get(r) ?? r.metric,
                  change_pct: r.change_pct,
                  level: r.level,
                }))}
              />
            )}
          </section>
          <section className="section">
            <CompareTable rows={rows} />
          </section>
        </>
      )}
    </div>
  );
}
