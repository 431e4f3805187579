import { Marker } from "@/components/charts/Marker";
import type { TrendDatum } from "@/components/charts/trendData";
import { formatValue } from "@/lib/format";
import { STAGES, toStage } from "@/lib/stage";
import { color } from "@/lib/tokens";
import { LEVELS, toLevel } from "@/lib/verdict";

interface DotProps {
  cx?: number;
  cy?: number;
  index?: number;
  payload?: TrendDatum;
}

interface DotOptions {
  unit: string;
  /** Draw markers for ok points too (small series); verdicts other than ok are always drawn. */
  showOk: boolean;
  onPointClick: (runId: number) => void;
}

/**
 * Recharts `dot` renderer: each point's verdict as a shape, named in words for assistive tech and
 * tests. A suspected point is drawn as an outline of its shape, a dismissed one as a grey outline;
 * a confirmed one (the first bad run of a step) stays filled.
 */
export function trendDot({ unit, showOk, onPointClick }: DotOptions) {
  return function TrendDot({ cx, cy, index, payload }: DotProps) {
    const key = `dot-${index ?? 0}`;
    if (cx === undefined || cy === undefined || !payload) return <g key={key} />;
    const level = toLevel(payload.level);
    if ((level === "ok" || level === "no_baseline") && !showOk) return <g key={key} />;
    const info = LEVELS[level];
    const stage = toStage(payload.stage);
    const words = stage ? `${info.label}, ${STAGES[stage].label.toLowerCase()}` : info.label;
    return (
      <g
        key={key}
        data-testid="point-marker"
        data-level={level}
        data-stage={stage ?? undefined}
        data-run={payload.run_id}
        onClick={(e) => {
          e.stopPropagation();
          onPointClick(payload.run_id);
        }}
      >
        <title>{`${words}: run #${payload.run_id} ${formatValue(payload.value, unit, 4)}`}</title>
        <Marker
          shape={info.shape}
          color={stage === "dismissed" ? color.muted : info.color}
          cx={cx}
          cy={cy}
          size={level === "ok" ? 4 : stage === "confirmed" ? 6.5 : 5.5}
          outline={stage === "suspected" || stage === "dismissed"}
        />
      </g>
    );
  };
}
