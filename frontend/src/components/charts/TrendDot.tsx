import { Marker } from "@/components/charts/Marker";
import type { TrendDatum } from "@/components/charts/trendData";
import { formatValue } from "@/lib/format";
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

/** Recharts `dot` renderer: each point's verdict as a shape, named in words for assistive tech and tests. */
export function trendDot({ unit, showOk, onPointClick }: DotOptions) {
  return function TrendDot({ cx, cy, index, payload }: DotProps) {
    const key = `dot-${index ?? 0}`;
    if (cx === undefined || cy === undefined || !payload) return <g key={key} />;
    const level = toLevel(payload.level);
    if ((level === "ok" || level === "no_baseline") && !showOk) return <g key={key} />;
    const info = LEVELS[level];
    return (
      <g
        key={key}
        data-testid="point-marker"
        data-level={level}
        data-run={payload.run_id}
        onClick={(e) => {
          e.stopPropagation();
          onPointClick(payload.run_id);
        }}
      >
        <title>{`${info.label}: run #${payload.run_id} ${formatValue(payload.value, unit, 4)}`}</title>
        <Marker shape={info.shape} color={info.color} cx={cx} cy={cy} size={level === "ok" ? 4 : 5.5} />
      </g>
    );
  };
}
