import { nameCell, numCell, Table } from "@/components/ui/Table";
import { formatNumber } from "@/lib/format";
import { formatWeight, functionRows, type ProfileFunction } from "@/lib/profiles";
import styles from "@/components/profiles/Profiles.module.css";

interface FunctionsTableProps {
  functions: readonly ProfileFunction[];
  total: number;
  unit: string;
}

const pct = (v: number) => `${formatNumber(v)} %`;

/** A profile's top functions: self and inclusive cost, each with its share of the total. */
export function FunctionsTable({ functions, total, unit }: FunctionsTableProps) {
  const rows = functionRows(functions, total);
  return (
    <Table testId="profile-functions">
      <caption className={styles.caption}>
        Top functions by self cost (total {formatWeight(total, unit)}): the flame graph in words
      </caption>
      <thead>
        <tr>
          <th>Function</th>
          <th className={numCell}>Self</th>
          <th className={numCell}>% of total</th>
          <th className={numCell}>Inclusive</th>
          <th className={numCell}>% of total</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.name} data-testid="profile-function">
            <td className={styles.fn}>
              <span className={nameCell}>{r.name}</span>
            </td>
            <td className={numCell}>{formatWeight(r.self, unit)}</td>
            <td className={numCell}>{pct(r.selfPct)}</td>
            <td className={numCell}>{formatWeight(r.inclusive, unit)}</td>
            <td className={numCell}>{pct(r.inclusivePct)}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
