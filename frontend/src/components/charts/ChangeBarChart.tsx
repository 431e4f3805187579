import type { Level } from "@/api/types";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import styles from "@/components/charts/ChangeBarChart.module.css";
import { formatChange, formatWorse } from "@/lib/format";
import { color } from "@/lib/tokens";
import { LEVELS, toLevel } from "@/lib/verdict";

export interface ChangeBar {
  label: string;
  change_pct: number | null;
  level: Level | null;
  direction: string;
}

/** Horizontal bars of each row's change, worse to the right, coloured and labelled by verdict; each
 * bar's label says the change in its metric's own direction ("−11.8 % · worse"). */
export function ChangeBarChart({ rows }: { rows: readonly ChangeBar[] }) {
  const data = rows
    .filter((r) => r.change_pct !== null)
    .map((r) => ({ ...r, change: r.change_pct as number, verdict: LEVELS[toLevel(r.level)].label }));
  if (!data.length) return null;
  const height = Math.max(120, data.length * 28 + 40);
  return (
    <div className={styles.chart} data-testid="change-bars">
      <ResponsiveContainer width="100%" height={height}>
        <BarChart data={data} layout="vertical" margin={{ top: 4, right: 72, bottom: 4, left: 8 }}>
          <CartesianGrid stroke={color.grid} horizontal={false} />
          <XAxis
            type="number"
            tickFormatter={(v: number) => formatWorse(v)}
            tick={{ fontSize: 11, fill: color.muted }}
          />
          <YAxis
            type="category"
            dataKey="label"
            width={320}
            tick={{ fontSize: 11, fill: color.text }}
            interval={0}
          />
          <ReferenceLine x={0} stroke={color.borderStrong} />
          <Tooltip
            isAnimationActive={false}
            formatter={(value, _name, item) => [
              `${formatChange(Number(value), String(item.payload.direction))} (${String(item.payload.verdict)})`,
              "change",
            ]}
          />
          <Bar
            dataKey="change"
            isAnimationActive={false}
            label={{ position: "right", fontSize: 11, formatter: (v: unknown) => formatWorse(Number(v)) }}
          >
            {data.map((d, i) => (
              <Cell key={i} fill={LEVELS[toLevel(d.level)].color} />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
