import type { Schemas } from "@/api/types";
import { Empty } from "@/components/ui/States";
import styles from "@/features/system/components/SeriesBoard.module.css";
import { SeriesPanel } from "@/features/system/components/SeriesPanel";
import { arrange, seriesId, type Batch, type BatchSeries } from "@/features/system/hooks/batchSeries";
import type { SystemSearch } from "@/features/system/hooks/useSystemSearch";

interface SeriesBoardProps {
  system: Schemas["SystemDetail"];
  batch: Batch;
  search: SystemSearch;
}

/** The page's series: what needs a look first, then every benchmark's group (collapsible). */
export function SeriesBoard({ system, batch, search }: SeriesBoardProps) {
  const metrics = new Map(system.metrics.map((m) => [m.name, m]));
  const { attention, groups, shown } = arrange(batch.series, search.q ?? "", search.changed);
  const isFocused = (s: BatchSeries) =>
    search.benchmark === s.benchmark &&
    search.metric === s.metric &&
    (!search.params || search.params === s.params_key);
  const panel = (s: BatchSeries, withBenchmark: boolean) => (
    <SeriesPanel
      key={seriesId(s)}
      series={s}
      runs={batch.runs}
      environment={batch.environment_changes}
      metric={metrics.get(s.metric)}
      system={system.slug}
      branch={batch.branch}
      withBenchmark={withBenchmark}
      focused={isFocused(s)}
    />
  );
  if (batch.series.length === 0)
    return <Empty title="No benchmarks yet">Results uploaded for this system will be charted here.</Empty>;
  if (shown === 0)
    return (
      <Empty title="No series match">
        Nothing matches {search.q ? `“${search.q}”` : "the filters"}
        {search.changed ? " among the changed series" : ""}.
      </Empty>
    );
  return (
    <div data-testid="series-board">
      {attention.length ? (
        <section className={styles.attention} data-testid="needs-a-look" aria-labelledby="needs-a-look">
          <h2 id="needs-a-look" className={styles.heading}>
            Needs a look <span className="muted">({attention.length})</span>
          </h2>
          <div className={styles.grid}>{attention.map((s) => panel(s, true))}</div>
        </section>
      ) : null}
      {groups.map((g) => (
        <details
          key={g.name}
          className={styles.group}
          data-testid="benchmark-group"
          data-benchmark={g.name}
          open
        >
          <summary className={styles.summary}>
            <span className={styles.name}>{g.name}</span>{" "}
            <span className="muted small">
              {g.series.length} series{g.changed ? ` · ${g.changed} changed` : ""}
            </span>
          </summary>
          <div className={styles.grid}>{g.series.map((s) => panel(s, false))}</div>
        </details>
      ))}
      {batch.truncated ? (
        <p className="muted small">
          Only the first {batch.series.length} series are shown; search to narrow the page.
        </p>
      ) : null}
    </div>
  );
}
