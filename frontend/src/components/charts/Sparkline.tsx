import type { Level } from "@/api/types";
import { MarkerIcon } from "@/components/charts/Marker";
import styles from "@/components/charts/Sparkline.module.css";
import { color } from "@/lib/tokens";
import { LEVELS, toLevel } from "@/lib/verdict";

interface SparklineProps {
  values: readonly number[];
  level?: Level | null;
  width?: number;
  height?: number;
  label: string;
}

/** A small trend line; the last point carries the latest verdict's marker. */
export function Sparkline({ values, level, width = 220, height = 48, label }: SparklineProps) {
  if (values.length < 2) return <div className={styles.empty}>Not enough runs for a trend</div>;
  // At least ±2 % of the mean in view, so run-to-run noise of a fraction of a percent looks flat.
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = Math.max(hi - lo, Math.abs(mean) * 0.04) || 1;
  const min = (lo + hi) / 2 - span / 2;
  const pad = 6;
  const x = (i: number) => pad + (i / (values.length - 1)) * (width - 2 * pad);
  const y = (v: number) => pad + (1 - (v - min) / span) * (height - 2 * pad);
  const d = values.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join("");
  const l = toLevel(level);
  const last = values[values.length - 1]!;
  return (
    <svg className={styles.sparkline} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
      <path
        d={`${d}L${x(values.length - 1)},${height}L${x(0)},${height}Z`}
        fill={color.accentSoft}
        stroke="none"
      />
      <path d={d} fill="none" stroke={color.accent} strokeWidth={1.5} />
      <g transform={`translate(${x(values.length - 1) - 7},${y(last) - 7})`}>
        <MarkerIcon shape={LEVELS[l].shape} color={LEVELS[l].color} size={14} />
      </g>
    </svg>
  );
}
