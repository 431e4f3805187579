import { useMemo } from "react";
import { useNavigate } from "react-router";
import type { Schemas } from "@/api/types";
import { Card } from "@/components/ui/Card";
import { ErrorState, Loading } from "@/components/ui/States";
import { lazyModule } from "@/hooks/useLazyModule";
import { useSeries } from "@/features/backtest/api/backtest";
import { wouldMarks } from "@/features/backtest/hooks/shape";

const trendChart = lazyModule(() => import("@/components/charts/TrendChart"));

interface BacktestChartProps {
  slug: string;
  branch: string;
  series: Schemas["BacktestSeries"];
}

/** The replayed series' chart, its would-have-opened alerts marked at their first bad run. */
export function BacktestChart({ slug, branch, series: s }: BacktestChartProps) {
  const navigate = useNavigate();
  const TrendChart = trendChart.useModule()?.TrendChart;
  const key = useMemo(
    () => ({
      system: slug,
      benchmark: s.benchmark,
      benchmarkId: s.benchmark_id,
      metric: s.metric,
      branch,
      testbed: s.testbed,
      from: s.first_run_at,
      maxPoints: Math.max(10, s.runs),
    }),
    [slug, branch, s],
  );
  const points = useSeries(key);
  const marks = useMemo(() => wouldMarks(s), [s]);
  if (points.isPending || !TrendChart) return <Loading label="Loading the chart…" />;
  if (points.isError) return <ErrorState error={points.error} onRetry={() => void points.refetch()} />;
  return (
    <Card data-testid="backtest-chart">
      <TrendChart
        points={points.data.points}
        unit={s.unit}
        direction={s.direction}
        warnThreshold={s.thresholds.warn}
        failThreshold={s.thresholds.fail}
        branch={branch}
        paintKey={`backtest/${slug}/${s.benchmark_id}/${s.metric}`}
        onPointClick={(runId) => void navigate(`/runs/${runId}`)}
        steps={marks}
      />
      <p className="muted small">
        Marked: the alerts that would have opened at {s.thresholds.warn} / {s.thresholds.fail} %, at their
        first bad run. Bands: those thresholds around each point's baseline.
      </p>
    </Card>
  );
}
