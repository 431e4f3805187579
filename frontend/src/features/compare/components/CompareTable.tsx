import type { Schemas } from "@/api/client";
import { VerdictBadge } from "@/components/ui/VerdictBadge";
import { formatChange, formatParameters, formatPValue, formatValue } from "@/lib/format";
import { toLevel } from "@/lib/verdict";

export function CompareTable({ rows }: { rows: readonly Schemas["CompareRow"][] }) {
  return (
    <div className="table-wrap">
      <table className="table" data-testid="compare-table">
        <thead>
          <tr>
            <th>Benchmark</th>
            <th>Metric</th>
            <th className="num">Base</th>
            <th className="num">Head</th>
            <th className="num">Change</th>
            <th>Verdict</th>
            <th className="num">p-value</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>
              <td>
                <div className="bench-name">{r.benchmark}</div>
                <div className="muted small">{formatParameters(r.parameters)}</div>
              </td>
              <td>{r.metric}</td>
              <td className="num">{formatValue(r.base, r.unit, 4)}</td>
              <td className="num">{formatValue(r.head, r.unit, 4)}</td>
              <td className={`num change change-${toLevel(r.level)}`}>{formatChange(r.change_pct)}</td>
              <td>
                <VerdictBadge level={r.level} />
              </td>
              <td className="num">{formatPValue(r.p_value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
