import { useEffect, useMemo, useRef, type ReactNode } from "react";
import clsx from "clsx";
import { useNavigate } from "react-router";
import { ApiError } from "@/api/errors";
import type { Schemas } from "@/api/types";
import { cardClass } from "@/components/ui/Card";
import { Empty, ErrorState, Loading } from "@/components/ui/States";
import { VerdictBadge } from "@/components/ui/VerdictBadge";
import { formatChange, formatValue } from "@/lib/format";
import { lazyModule } from "@/hooks/useLazyModule";
import { useSeries, type SeriesKey } from "@/features/system/api/getSeries";
import styles from "@/features/system/components/SeriesCard.module.css";

interface SeriesCardProps {
  seriesKey: SeriesKey;
  metric: Schemas["MetricRead"];
  /** The URL points at this chart: scroll it into view and ring it. */
  focused: boolean;
  /** The card's heading; the metric's name unless given (one-metric systems name the benchmark). */
  title?: ReactNode;
}

// Recharts is the largest part of the bundle: load it as its own chunk, starting at once, so it
// downloads and compiles while the series are still being fetched.
const trendChart = lazyModule(() => import("@/components/charts/TrendChart"));
void trendChart.preload();

/** One benchmark × metric trend, with its latest value and verdict. */
export function SeriesCard({ seriesKey, metric, focused, title }: SeriesCardProps) {
  const series = useSeries(seriesKey);
  const TrendChart = trendChart.useModule()?.TrendChart;
  const navigate = useNavigate();
  const ref = useRef<HTMLElement>(null);
  const points = useMemo(() => series.data?.points ?? [], [series.data]);
  const loaded = series.isSuccess;

  useEffect(() => {
    if (focused && loaded) ref.current?.scrollIntoView({ block: "center" });
  }, [focused, loaded]);

  const notFound = series.error instanceof ApiError && series.error.status === 404;
  const last = points[points.length - 1];
  const label = `${seriesKey.benchmark} ${metric.name}`;
  return (
    <section
      ref={ref}
      className={clsx(cardClass, styles.card, focused && styles.focused)}
      data-testid="series-card"
      data-benchmark={seriesKey.benchmark}
      data-metric={metric.name}
      data-focused={focused}
      aria-label={label}
    >
      <header className={styles.head}>
        <div>
          <h3>{title ?? metric.name}</h3>
          <span className="muted small">
            {title ? `${metric.name} · ` : ""}
            {metric.unit} · {metric.direction === "higher_is_better" ? "higher is better" : "lower is better"}{" "}
            · warn {metric.warn_threshold} % / fail {metric.fail_threshold} %
          </span>
        </div>
        {last ? (
          <div className={styles.latest}>
            <span className={styles.value}>{formatValue(last.value, metric.unit, 4)}</span>
            <span className="small">
              {formatChange(last.change_pct, metric.direction)} <VerdictBadge level={last.level} />
            </span>
          </div>
        ) : null}
      </header>
      {series.isPending ? (
        <Loading label="Loading series…" />
      ) : notFound ? (
        <Empty plain title="No measurements of this metric for this benchmark." />
      ) : series.isError ? (
        <ErrorState error={series.error} onRetry={() => void series.refetch()} />
      ) : points.length === 0 ? (
        <Empty plain title="No runs in this range on this branch and testbed." />
      ) : !TrendChart ? (
        <Loading label="Loading chart…" />
      ) : (
        <>
          <TrendChart
            points={points}
            unit={metric.unit}
            direction={metric.direction}
            warnThreshold={series.data.warn_threshold}
            failThreshold={series.data.fail_threshold}
            branch={seriesKey.branch}
            paintKey={`${seriesKey.system}/${seriesKey.benchmark}/${seriesKey.benchmarkId ?? ""}/${metric.name}`}
            onPointClick={(runId) => navigate(`/runs/${runId}`)}
            steps={series.data.steps}
            changes={series.data.changes}
            environment={series.data.environment_changes}
          />
          <footer className={styles.foot} data-testid="series-foot">
            {series.data.downsampled
              ? `${points.length.toLocaleString("en-US")} of ${series.data.total.toLocaleString("en-US")} runs shown (downsampled on the server)`
              : `${points.length.toLocaleString("en-US")} runs`}
            {series.data.testbed ? ` · testbed ${series.data.testbed}` : ""}
          </footer>
        </>
      )}
    </section>
  );
}
