import { useEffect, useMemo, useRef } from "react";
import clsx from "clsx";
import { Link, useNavigate } from "react-router";
import type { Schemas } from "@/api/types";
import { cardClass } from "@/components/ui/Card";
import { Empty, Loading } from "@/components/ui/States";
import { StageBadge, VerdictBadge } from "@/components/ui/VerdictBadge";
import { formatChange, formatParameters, formatValue } from "@/lib/format";
import { lazyModule } from "@/hooks/useLazyModule";
import styles from "@/features/system/components/SeriesCard.module.css";
import { toPoints, type Batch, type BatchSeries } from "@/features/system/hooks/batchSeries";
import { useInView } from "@/features/system/hooks/useInView";

const trendChart = lazyModule(() => import("@/components/charts/TrendChart"));
void trendChart.preload();

interface SeriesPanelProps {
  series: BatchSeries;
  runs: Batch["runs"];
  /** The view's environment changes (compiler, kernel, CPU …), marked on every chart. */
  environment: Batch["environment_changes"];
  metric: Schemas["MetricRead"] | undefined;
  system: string;
  branch: string;
  /** Name the parameters in the title (the benchmark's group does not). */
  withBenchmark: boolean;
  focused: boolean;
}

/** One series of the batch: its title (the card's one Tab stop), latest verdict and, once near
 * the viewport, its trend chart. */
export function SeriesPanel({
  series: s,
  runs,
  environment,
  metric,
  system,
  branch,
  withBenchmark,
  focused,
}: SeriesPanelProps) {
  const ref = useRef<HTMLElement>(null);
  const near = useInView(ref);
  const TrendChart = trendChart.useModule()?.TrendChart;
  const navigate = useNavigate();
  const points = useMemo(() => (near ? toPoints(s, runs) : []), [near, s, runs]);
  const count = s.points.run.length;
  const lastAt = count - 1;
  const unit = metric?.unit ?? "";
  const direction = metric?.direction ?? "lower_is_better";
  const params = formatParameters(s.parameters);
  const link = new URLSearchParams({ benchmark: s.benchmark, metric: s.metric, params: s.params_key });
  if (branch !== "main") link.set("branch", branch);

  useEffect(() => {
    if (focused) ref.current?.scrollIntoView({ block: "center" });
  }, [focused]);

  return (
    <section
      ref={ref}
      className={clsx(cardClass, styles.card, focused && styles.focused)}
      data-testid="series-card"
      data-benchmark={s.benchmark}
      data-metric={s.metric}
      data-state={s.state}
      data-focused={focused}
      aria-label={`${s.benchmark} ${s.metric}`}
    >
      <header className={styles.head}>
        <div>
          <h3>
            <Link to={`/systems/${encodeURIComponent(system)}?${link}`} data-testid="series-title">
              {withBenchmark ? `${s.benchmark} · ${s.metric}` : s.metric}
            </Link>
          </h3>
          <span className="muted small">
            {params ? `${params} · ` : ""}
            {unit} · {direction === "higher_is_better" ? "higher is better" : "lower is better"}
          </span>
        </div>
        {count ? (
          <div className={styles.latest}>
            <span className={styles.value}>{formatValue(s.points.value[lastAt], unit, 4)}</span>
            <span className="small">
              {formatChange(s.points.change_pct[lastAt], direction)}{" "}
              <VerdictBadge level={s.points.level[lastAt]} /> <StageBadge stage={s.points.stage[lastAt]} />
            </span>
          </div>
        ) : null}
      </header>
      {count === 0 ? (
        <Empty plain title="No runs in this range on this branch and testbed." />
      ) : !near || !TrendChart ? (
        <div className={styles.placeholder} data-testid="chart-placeholder">
          <Loading label="Chart draws when scrolled into view…" />
        </div>
      ) : (
        <>
          <TrendChart
            points={points}
            unit={unit}
            direction={direction}
            warnThreshold={metric?.warn_threshold ?? 5}
            failThreshold={metric?.fail_threshold ?? 10}
            branch={branch}
            paintKey={`${system}/${s.benchmark}/${s.benchmark_id}/${s.metric}`}
            onPointClick={(runId) => void navigate(`/runs/${runId}`)}
            steps={s.steps}
            changes={s.changes}
            environment={environment}
            tabbable={false}
          />
          <footer className={styles.foot} data-testid="series-foot">
            {s.downsampled
              ? `${count.toLocaleString("en-US")} of ${s.total.toLocaleString("en-US")} runs shown (downsampled on the server)`
              : `${count.toLocaleString("en-US")} runs`}
          </footer>
        </>
      )}
    </section>
  );
}
