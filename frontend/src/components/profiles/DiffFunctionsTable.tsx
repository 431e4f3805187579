import clsx from "clsx";
import { nameCell, numCell, Table } from "@/components/ui/Table";
import {
  diffRows,
  formatSignedPct,
  formatSignedWeight,
  formatWeight,
  type DiffFunction,
} from "@/lib/profiles";
import styles from "@/components/profiles/Profiles.module.css";

interface DiffFunctionsTableProps {
  functions: readonly DiffFunction[];
  unit: string;
  testId?: string;
}

/** Each function's self cost in base and head, what grew most first, as a share of the base total. */
export function DiffFunctionsTable({ functions, unit, testId = "diff-functions" }: DiffFunctionsTableProps) {
  const rows = diffRows(functions);
  return (
    <Table testId={testId}>
      <caption className={styles.caption}>
        Self cost per function, base → head, largest growth first: the differential flame graph in words
      </caption>
      <thead>
        <tr>
          <th>Function</th>
          <th className={numCell}>Base self</th>
          <th className={numCell}>Head self</th>
          <th className={numCell}>Change</th>
          <th className={numCell}>% of base total</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr
            key={r.name}
            data-testid="diff-function"
            data-tone={r.delta_self > 0 ? "grew" : r.delta_self < 0 ? "shrank" : "same"}
          >
            <td className={styles.fn}>
              <span className={nameCell}>{r.name}</span>
            </td>
            <td className={numCell}>{formatWeight(r.self_base, unit)}</td>
            <td className={numCell}>{formatWeight(r.self_head, unit)}</td>
            <td className={clsx(numCell, r.delta_self > 0 ? styles.grew : r.delta_self < 0 && styles.shrank)}>
              {formatSignedWeight(r.delta_self, unit)}
            </td>
            <td className={clsx(numCell, r.delta_self > 0 ? styles.grew : r.delta_self < 0 && styles.shrank)}>
              {formatSignedPct(r.pct_of_base_total)}
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
