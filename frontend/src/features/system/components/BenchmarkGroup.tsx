import type { Schemas } from "@/api/client";
import { formatParameters } from "@/lib/format";
import type { SeriesKey } from "@/features/system/api/getSeries";
import { SeriesCard } from "@/features/system/components/SeriesCard";

interface BenchmarkGroupProps {
  benchmark: Schemas["BenchmarkRead"];
  metrics: readonly Schemas["MetricRead"][];
  base: Omit<SeriesKey, "benchmark" | "benchmarkId" | "metric">;
  focusMetric: string | null;
  /** No other benchmark of the system has this name, so the name alone picks its series. */
  unique: boolean;
}

/** Every metric's trend for one benchmark (name + parameters). */
export function BenchmarkGroup({ benchmark, metrics, base, focusMetric, unique }: BenchmarkGroupProps) {
  const params = formatParameters(benchmark.parameters);
  // Only the metrics this benchmark has measurements of (the API lists them per benchmark).
  const measured = benchmark.metrics ?? [];
  const shown = measured.length ? metrics.filter((m) => measured.includes(m.name)) : metrics;
  return (
    <section className="bench-group" data-testid="benchmark-group">
      <h2 className="bench-title">
        {benchmark.name}
        {params ? <span className="bench-params">{params}</span> : null}
      </h2>
      <div className="chart-grid">
        {shown.map((m) => (
          <SeriesCard
            key={m.name}
            seriesKey={{
              ...base,
              benchmark: benchmark.name,
              benchmarkId: unique ? null : benchmark.id,
              metric: m.name,
            }}
            metric={m}
            focused={focusMetric === m.name}
          />
        ))}
      </div>
    </section>
  );
}
