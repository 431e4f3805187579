import { ReferenceLine } from "recharts";
import type { Mark } from "@/components/charts/marks";
import { color } from "@/lib/tokens";

interface LineShape {
  x1?: number;
  y1?: number;
  x2?: number;
  y2?: number;
}

const ROW_HEIGHT = 14;

/** The SVG of one mark: the vertical line, its label at the top (haloed for legibility) and a title. */
export function markShape(m: Mark) {
  return function MarkShape({ x1, y1, x2, y2 }: LineShape) {
    if (x1 === undefined || y1 === undefined || x2 === undefined || y2 === undefined) return <g />;
    const top = Math.min(y1, y2);
    const dx = m.anchor === "start" ? 4 : -4;
    return (
      <g
        data-testid={`${m.kind}-marker`}
        data-run={m.runId}
        data-level={m.level ?? undefined}
        data-status={m.status ?? undefined}
        data-culprit={m.culprit}
      >
        <title>{m.title}</title>
        <line
          x1={x1}
          y1={y1}
          x2={x2}
          y2={y2}
          stroke={m.color}
          strokeWidth={m.kind === "step" ? 1.6 : 1.4}
          strokeDasharray={m.kind === "environment" ? "2 3" : m.dashed ? "6 4" : undefined}
          strokeOpacity={m.muted ? 0.7 : 1}
        />
        <text
          x={x1 + dx}
          y={top + 11 + m.row * ROW_HEIGHT}
          textAnchor={m.anchor}
          fontSize={11}
          fontWeight={600}
          fill={m.color}
          stroke={color.surface}
          strokeWidth={3}
          paintOrder="stroke"
        >
          {m.label}
        </text>
      </g>
    );
  };
}

/** Recharts reference lines for the chart's steps and accepted changes (call inside the chart's children). */
export function markLines(marks: readonly Mark[]) {
  return marks.map((m) => <ReferenceLine key={m.key} x={m.x} ifOverflow="discard" shape={markShape(m)} />);
}
