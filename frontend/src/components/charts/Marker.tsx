import styles from "@/components/charts/Marker.module.css";
import { color as token } from "@/lib/tokens";
import type { Shape } from "@/lib/verdict";

interface MarkerProps {
  shape: Shape;
  color: string;
  cx: number;
  cy: number;
  size?: number;
  /** Drawn as an outline (a suspected or dismissed point) rather than filled. */
  outline?: boolean;
}

/**
 * One verdict marker: each level has its own shape, so the chart does not speak in colour alone;
 * an outlined shape is a point that is only suspected (or was dismissed), a filled one is settled.
 */
export function Marker({ shape, color, cx, cy, size = 5, outline = false }: MarkerProps) {
  const s = size;
  const paint = outline
    ? { fill: token.surface, stroke: color, strokeWidth: 1.8 }
    : { fill: color, stroke: token.surface, strokeWidth: 1 };
  switch (shape) {
    case "triangleDown":
      return (
        <path
          d={`M${cx - s * 1.2},${cy - s} L${cx + s * 1.2},${cy - s} L${cx},${cy + s * 1.1} Z`}
          {...paint}
        />
      );
    case "triangleUp":
      return (
        <path
          d={`M${cx - s * 1.2},${cy + s} L${cx + s * 1.2},${cy + s} L${cx},${cy - s * 1.1} Z`}
          {...paint}
        />
      );
    case "diamond":
      return (
        <path
          d={`M${cx},${cy - s * 1.3} L${cx + s * 1.1},${cy} L${cx},${cy + s * 1.3} L${cx - s * 1.1},${cy} Z`}
          {...paint}
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

interface MarkerIconProps {
  shape: Shape;
  color: string;
  size?: number;
  outline?: boolean;
}

/** A marker as a small inline SVG, for legends and badges. */
export function MarkerIcon({ shape, color, size = 12, outline = false }: MarkerIconProps) {
  return (
    <svg width={size} height={size} viewBox="0 0 14 14" aria-hidden="true" className={styles.icon}>
      <Marker shape={shape} color={color} cx={7} cy={7} size={shape === "dot" ? 8 : 5} outline={outline} />
    </svg>
  );
}
