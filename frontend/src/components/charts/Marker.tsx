import styles from "@/components/charts/Marker.module.css";
import { color as token } from "@/lib/tokens";
import type { Shape } from "@/lib/verdict";

interface MarkerProps {
  shape: Shape;
  color: string;
  cx: number;
  cy: number;
  size?: number;
}

/** One verdict marker: each level has its own shape, so the chart does not speak in colour alone. */
export function Marker({ shape, color, cx, cy, size = 5 }: MarkerProps) {
  const s = size;
  switch (shape) {
    case "triangleDown":
      return (
        <path
          d={`M${cx - s * 1.2},${cy - s} L${cx + s * 1.2},${cy - s} L${cx},${cy + s * 1.1} Z`}
          fill={color}
          stroke={token.surface}
          strokeWidth={1}
        />
      );
    case "triangleUp":
      return (
        <path
          d={`M${cx - s * 1.2},${cy + s} L${cx + s * 1.2},${cy + s} L${cx},${cy - s * 1.1} Z`}
          fill={color}
          stroke={token.surface}
          strokeWidth={1}
        />
      );
    case "diamond":
      return (
        <path
          d={`M${cx},${cy - s * 1.3} L${cx + s * 1.1},${cy} L${cx},${cy + s * 1.3} L${cx - s * 1.1},${cy} Z`}
          fill={color}
          stroke={token.surface}
          strokeWidth={1}
        />
      );
    case "square":
      return (
        <rect
          x={cx - s * 0.9}
          y={cy - s * 0.9}
          width={s * 1.8}
          height={s * 1.8}
          fill={token.surface}
          stroke={color}
          strokeWidth={2}
        />
      );
    case "ring":
      return <circle cx={cx} cy={cy} r={s} fill={token.surface} stroke={color} strokeWidth={2} />;
    case "hollow":
      return <circle cx={cx} cy={cy} r={s * 0.6} fill={token.surface} stroke={color} strokeWidth={1.5} />;
    default:
      return <circle cx={cx} cy={cy} r={s * 0.55} fill={color} />;
  }
}

/** A marker as a small inline SVG, for legends and badges. */
export function MarkerIcon({ shape, color, size = 12 }: { shape: Shape; color: string; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 14 14" aria-hidden="true" className={styles.icon}>
      <Marker shape={shape} color={color} cx={7} cy={7} size={shape === "dot" ? 8 : 5} />
    </svg>
  );
}
