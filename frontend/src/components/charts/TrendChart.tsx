import { useEffect, useMemo, useRef, type RefObject } from "react";
import { Area, Brush, CartesianGrid, ComposedChart, Line, Tooltip, XAxis, YAxis } from "recharts";
import { markLines } from "@/components/charts/MarkLines";
import {
  placeMarks,
  type ChangeInput,
  type EnvironmentInput,
  type StepInput,
} from "@/components/charts/marks";
import { trendDot } from "@/components/charts/TrendDot";
import { TrendTooltip } from "@/components/charts/TrendTooltip";
import { usePaintMark } from "@/components/charts/usePaintMark";
import { nearestByTime, prepareTrend, shortDate, type TrendPoint } from "@/components/charts/trendData";
import styles from "@/components/charts/TrendChart.module.css";
import { digitsForStep, formatValue } from "@/lib/format";
import { color } from "@/lib/tokens";

interface TrendChartProps {
  points: readonly TrendPoint[];
  unit: string;
  direction: string;
  warnThreshold: number;
  failThreshold: number;
  branch: string;
  /** Names the chart's first-paint entry in the page's User Timing (see usePaintMark). */
  paintKey: string;
  onPointClick: (runId: number) => void;
  /** Confirmed steps, marked at their first bad run. */
  steps?: readonly StepInput[];
  /** Accepted distribution changes, marked (dashed) where the baseline restarts. */
  changes?: readonly ChangeInput[];
  /** Environment changes on the testbed (compiler, kernel, CPU …), marked (dotted) at their run. */
  environment?: readonly EnvironmentInput[];
  height?: number;
  /** False on pages of many charts: the chart (and its brush) leave the Tab order to the card's title. */
  tabbable?: boolean;
}

const TICK_FONT_PX = 11;

/** A y tick on one line (Recharts wraps a label wider than the axis at its spaces: "14.4k / req/s"). */
function YTick({
  x,
  y,
  payload,
  format,
}: {
  x?: number;
  y?: number;
  payload?: { value: number };
  format: (v: number) => string;
}) {
  return (
    <text data-testid="y-tick" x={x} y={y} dy={4} textAnchor="end" fontSize={TICK_FONT_PX} fill={color.muted}>
      {payload ? format(payload.value) : ""}
    </text>
  );
}

/** A series over time: value line, min–max band, baseline, warn/fail zones, verdict markers, steps and changes. */
export function TrendChart(props: TrendChartProps) {
  const {
    points,
    unit,
    direction,
    warnThreshold,
    failThreshold,
    branch,
    paintKey,
    onPointClick,
    steps,
    changes,
    environment,
    height = 230,
    tabbable = true,
  } = props;
  const { data, domain, ticks, xTicks } = useMemo(
    () => prepareTrend(points, { direction, warn: warnThreshold, fail: failThreshold }),
    [points, direction, warnThreshold, failThreshold],
  );
  const marks = useMemo(
    () => placeMarks(data, steps, changes, direction, environment),
    [data, steps, changes, direction, environment],
  );
  const ref = useRef<HTMLDivElement>(null);
  const tickDigits = digitsForStep(domain[1], ticks.length > 1 ? ticks[1]! - ticks[0]! : 0);
  const showOk = data.length <= 120;

  usePaintMark(ref, paintKey, ".recharts-line-curve");
  useUntabbable(ref, !tabbable);
  const formatTick = (v: number) => formatValue(v, unit, tickDigits);
  // Wide enough for the longest label on one line (about 0.62 em per character).
  const axisWidth = Math.max(
    48,
    Math.ceil(Math.max(...ticks.map((t) => formatTick(t).length)) * TICK_FONT_PX * 0.62) + 12,
  );
  const renderDot = useMemo(() => trendDot({ unit, showOk, onPointClick }), [unit, showOk, onPointClick]);

  return (
    <div ref={ref} className={styles.chart} data-testid="trend-chart" data-points={data.length}>
      <ComposedChart
        responsive
        style={{ width: "100%", height, cursor: "pointer" }}
        data={data}
        accessibilityLayer={tabbable}
        margin={{ top: 8, right: 12, bottom: 0, left: 4 }}
        onClick={(state) => {
          const x = typeof state?.activeLabel === "number" ? state.activeLabel : Number(state?.activeLabel);
          const hit = Number.isFinite(x) ? nearestByTime(data, x) : data[Number(state?.activeTooltipIndex)];
          if (hit) onPointClick(hit.run_id);
        }}
      >
        <CartesianGrid
          stroke={color.grid}
          vertical={false}
          verticalCoordinatesGenerator={() => []}
          // Grid lines on our own ticks: Recharts' default measures every tick label's text first.
          horizontalCoordinatesGenerator={({ offset }) =>
            ticks.map(
              (t) =>
                (offset.top ?? 0) +
                (1 - (t - domain[0]) / (domain[1] - domain[0] || 1)) * (offset.height ?? 0),
            )
          }
        />
        <XAxis
          dataKey="x"
          type="number"
          scale="time"
          domain={["dataMin", "dataMax"]}
          ticks={xTicks}
          interval={0}
          tickFormatter={shortDate}
          tick={{ fontSize: 11, fill: color.muted }}
          stroke={color.border}
        />
        <YAxis
          domain={domain}
          ticks={ticks}
          interval={0}
          allowDataOverflow
          tick={<YTick format={formatTick} />}
          stroke={color.border}
          width={axisWidth}
        />
        <Tooltip
          content={<TrendTooltip unit={unit} direction={direction} branch={branch} />}
          isAnimationActive={false}
        />
        <Area
          dataKey="failBand"
          stroke="none"
          fill={color.failZone}
          isAnimationActive={false}
          connectNulls={false}
          activeDot={false}
          type="stepAfter"
        />
        <Area
          dataKey="warnBand"
          stroke="none"
          fill={color.warnZone}
          isAnimationActive={false}
          connectNulls={false}
          activeDot={false}
          type="stepAfter"
        />
        <Area dataKey="range" stroke="none" fill={color.range} isAnimationActive={false} activeDot={false} />
        {markLines(marks)}
        <Line
          dataKey="baseline"
          stroke={color.baseline}
          strokeDasharray="5 4"
          strokeWidth={1.5}
          dot={false}
          activeDot={false}
          type="stepAfter"
          isAnimationActive={false}
        />
        <Line
          dataKey="value"
          stroke={color.accent}
          strokeWidth={1.8}
          dot={renderDot}
          activeDot={{ r: 5 }}
          isAnimationActive={false}
        />
        {data.length > 12 ? (
          <Brush
            dataKey="x"
            height={18}
            travellerWidth={8}
            stroke={color.borderStrong}
            tickFormatter={shortDate}
          />
        ) : null}
      </ComposedChart>
    </div>
  );
}

/** Take every focusable element Recharts draws (the brush's handles) out of the Tab order. */
function useUntabbable(ref: RefObject<HTMLElement | null>, on: boolean) {
  useEffect(() => {
    const el = ref.current;
    if (!on || !el) return;
    const strip = () => {
      for (const node of el.querySelectorAll('[tabindex]:not([tabindex="-1"])'))
        node.setAttribute("tabindex", "-1");
    };
    const observer = new MutationObserver(strip);
    observer.observe(el, { childList: true, subtree: true, attributes: true, attributeFilter: ["tabindex"] });
    strip();
    return () => observer.disconnect();
  }, [ref, on]);
}
