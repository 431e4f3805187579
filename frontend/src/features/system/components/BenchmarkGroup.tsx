import type { Schemas } from "@/api/types";
import { formatParameters } from "@/lib/format";
import type { SeriesKey } from "@/features/system/api/getSeries";
import styles from "@/features/system/components/BenchmarkGroup.module.css";
import { SeriesCard } from "@/features/system/components/SeriesCard";

type Benchmark = Schemas["BenchmarkRead"];
type BaseKey = Omit<SeriesKey, "benchmark" | "benchmarkId" | "metric">;

function Params({ benchmark }: { benchmark: Benchmark }) {
  const params = formatParameters(benchmark.parameters);
  return params ? <span className={styles.params}>{params}</span> : null;
}

interface BenchmarkGroupProps {
  benchmark: Benchmark;
  metrics: readonly Schemas["MetricRead"][];
  base: BaseKey;
  focusMetric: string | null;
  /** No other benchmark of the system has this name, so the name alone picks its series. */
  unique: boolean;
}

/** Every metric's trend for one benchmark (name + parameters). */
export function BenchmarkGroup({ benchmark, metrics, base, focusMetric, unique }: BenchmarkGroupProps) {
  // Only the metrics this benchmark has measurements of (the API lists them per benchmark).
  const measured = benchmark.metrics ?? [];
  const shown = measured.length ? metrics.filter((m) => measured.includes(m.name)) : metrics;
  return (
    <section className={styles.group} data-testid="benchmark-group">
      <h2 className={styles.title}>
        {benchmark.name}
        <Params benchmark={benchmark} />
      </h2>
      <div className={styles.grid}>
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

interface BenchmarkGridProps {
  benchmarks: readonly Benchmark[];
  metric: Schemas["MetricRead"];
  base: BaseKey;
  focusId: number | null;
  isUnique: (b: Benchmark) => boolean;
}

/** A system with one metric: a card per benchmark reads better than a group per chart. */
export function BenchmarkGrid({ benchmarks, metric, base, focusId, isUnique }: BenchmarkGridProps) {
  return (
    <div className={styles.grid}>
      {benchmarks.map((b) => (
        <SeriesCard
          key={b.id}
          seriesKey={{
            ...base,
            benchmark: b.name,
            benchmarkId: isUnique(b) ? null : b.id,
            metric: metric.name,
          }}
          metric={metric}
          focused={b.id === focusId}
          title={
            <>
              {b.name} <Params benchmark={b} />
            </>
          }
        />
      ))}
    </div>
  );
}
