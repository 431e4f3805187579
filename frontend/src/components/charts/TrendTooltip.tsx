import styles from "@/components/charts/TrendTooltip.module.css";
import type { TrendDatum } from "@/components/charts/trendData";
import { StageBadge, VerdictBadge } from "@/components/ui/VerdictBadge";
import { formatChange, formatDateTime, formatPValue, formatValue, shortCommit } from "@/lib/format";

interface TrendTooltipProps {
  active?: boolean;
  payload?: ReadonlyArray<{ payload?: unknown }>;
  unit: string;
  direction: string;
  branch: string;
}

/** Commit, branch, value ± stddev, change vs baseline and p-value of the hovered run. */
export function TrendTooltip({ active, payload, unit, direction, branch }: TrendTooltipProps) {
  const d = payload?.[0]?.payload as TrendDatum | undefined;
  if (!active || !d) return null;
  return (
    <div className={styles.tooltip} data-testid="chart-tooltip">
      <div className={styles.head}>
        <span className="mono">{shortCommit(d.commit)}</span>
        <span>
          <VerdictBadge level={d.level} /> <StageBadge stage={d.stage} />
        </span>
      </div>
      <div className="muted small">
        {branch} · run #{d.run_id} · {formatDateTime(d.t)}
      </div>
      <table>
        <tbody>
          <tr>
            <th>Value</th>
            <td>
              {formatValue(d.value, unit, 4)}
              {d.stddev !== null && d.n > 1 ? ` ± ${formatValue(d.stddev, unit, 2)}` : ""}
              {d.n > 1 ? <span className="muted"> (n={d.n})</span> : null}
            </td>
          </tr>
          {d.range ? (
            <tr>
              <th>Min–max</th>
              <td>
                {formatValue(d.range[0], unit)} – {formatValue(d.range[1], unit)}
              </td>
            </tr>
          ) : null}
          <tr>
            <th>Baseline</th>
            <td>{formatValue(d.baseline, unit, 4)}</td>
          </tr>
          <tr>
            <th>Change</th>
            <td>{formatChange(d.change_pct, direction)}</td>
          </tr>
          <tr>
            <th>p-value</th>
            <td>{formatPValue(d.p_value)}</td>
          </tr>
        </tbody>
      </table>
      <div className="muted small">Click to open this run</div>
    </div>
  );
}
