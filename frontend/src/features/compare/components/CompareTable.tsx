import type { Schemas } from "@/api/types";
import { Change } from "@/components/ui/Change";
import { nameCell, numCell, Table } from "@/components/ui/Table";
import { VerdictBadge } from "@/components/ui/VerdictBadge";
import { formatParameters, formatPValue, formatValue } from "@/lib/format";

/** Every series two runs share: base, head, change, verdict, p-value. */
export function CompareTable({ rows }: { rows: readonly Schemas["CompareRow"][] }) {
  return (
    <Table testId="compare-table">
      <thead>
        <tr>
          <th>Benchmark</th>
          <th>Metric</th>
          <th className={numCell}>Base</th>
          <th className={numCell}>Head</th>
          <th className={numCell}>Change</th>
          <th>Verdict</th>
          <th className={numCell}>p-value</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={i} data-testid="compare-row" data-level={r.level}>
            <td>
              <div className={nameCell}>{r.benchmark}</div>
              <div className="muted small">{formatParameters(r.parameters)}</div>
            </td>
            <td>{r.metric}</td>
            <td className={numCell}>{formatValue(r.base, r.unit, 4)}</td>
            <td className={numCell}>{formatValue(r.head, r.unit, 4)}</td>
            <td className={numCell}>
              <Change pct={r.change_pct} direction={r.direction} level={r.level} />
            </td>
            <td>
              <VerdictBadge level={r.level} />
            </td>
            <td className={numCell}>{formatPValue(r.p_value)}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
