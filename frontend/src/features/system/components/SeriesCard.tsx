import { useEffect, useMemo, useRef, type ReactNode } from "react";
import { useNavigate } from "react-router";
import { ApiError, type Schemas } from "@/api/client";
import { ErrorState, Loading } from "@/components/ui/States";
import { VerdictBadge } from "@/components/ui/VerdictBadge";
import { formatChange, formatValue } from "@/lib/format";
import { lazyModule } from "@/hooks/useLazyModule";
import { useSeries, type SeriesKey } from "@/features/system/api/getSeries";

interface SeriesCardProps {
  seriesKey: SeriesKey;
  metric: Schemas["MetricRead"];
  /** Runs of the chosen profile; null shows every run. */
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
      className={`card series-card${focused ? " focused" : ""}`}
      data-testid="series-card"
      data-benchmark={seriesKey.benchmark}
      data-metric={metric.name}
      aria-label={label}
    >
      <header className="series-head">
        <div>
          <h3>{title ?? metric.name}</h3>
          <span className="muted small">
            {title ? `${metric.name} · ` : ""}
            {metric.unit} · {metric.direction === "higher_is_better" ? "higher is better" : "lower is better"}{" "}
            · warn {metric.warn_threshold} % / fail {metric.fail_threshold} %
          </span>
        </div>
        {last ? (
          <div className="series-latest">
            <span className="series-value">{formatValue(last.value, metric.unit, 4)}</span>
            <span className="small">
              {formatChange(last.change_pct)} <VerdictBadge level={last.level} />
            </span>
          </div>
        ) : null}
      </header>
      {series.isPending ? (
        <Loading label="Loading series…" />
      ) : notFound ? (
        <div className="state state-empty small">No measurements of this metric for this benchmark.</div>
      ) : series.isError ? (
        <ErrorState error={series.error} onRetry={() => void series.refetch()} />
      ) : points.length === 0 ? (
        <div className="state state-empty small">No runs in this range on this branch and testbed.</div>
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
          />
          <footer className="series-foot muted small">
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
