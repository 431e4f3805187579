import { useMemo, useState } from "react";
import { Choice } from "@/components/ui/Choice";
import { Section } from "@/components/ui/Page";
import { Empty } from "@/components/ui/States";
import { numCell, Table } from "@/components/ui/Table";
import { isRegression } from "@/lib/verdict";
import { MeasurementRow } from "@/features/run/components/MeasurementRow";
import styles from "@/features/run/components/MeasurementTable.module.css";
import {
  selectMeasurements,
  type Measurement,
  type MeasurementView,
  type SortKey,
} from "@/features/run/hooks/measurementView";

interface MeasurementTableProps {
  rows: readonly Measurement[];
  view: MeasurementView;
  onView: (patch: Partial<MeasurementView>) => void;
  /** Offered to a signed-in user: accept a row's change as expected. */
  onAccept?: (m: Measurement) => void;
  /** Notes of the changes accepted during this visit, by measurement id. */
  accepted?: Readonly<Record<number, string>>;
}

const COLUMNS: { key: SortKey | null; label: string; num?: boolean }[] = [
  { key: null, label: "" },
  { key: "benchmark", label: "Benchmark" },
  { key: "metric", label: "Metric" },
  { key: null, label: "Value", num: true },
  { key: null, label: "Baseline", num: true },
  { key: "change", label: "Change", num: true },
  { key: "verdict", label: "Verdict" },
  { key: "p", label: "p-value", num: true },
];

function Headings({ view, onSort }: { view: MeasurementView; onSort: (key: SortKey) => void }) {
  const arrow = (key: SortKey) => (view.sort === key ? (view.dir === "asc" ? " ▲" : " ▼") : "");
  return (
    <tr>
      {COLUMNS.map((c, i) => (
        <th
          key={i}
          className={c.num ? numCell : undefined}
          aria-sort={
            c.key && view.sort === c.key ? (view.dir === "asc" ? "ascending" : "descending") : undefined
          }
        >
          {c.key ? (
            <button type="button" className={styles.sort} onClick={() => onSort(c.key as SortKey)}>
              {c.label}
              <span aria-hidden="true">{arrow(c.key)}</span>
            </button>
          ) : (
            c.label
          )}
        </th>
      ))}
    </tr>
  );
}

/** Every measurement of a run: sortable, filterable, samples on expand. */
export function MeasurementTable({ rows, view, onView, onAccept, accepted }: MeasurementTableProps) {
  const shown = useMemo(() => selectMeasurements(rows, view), [rows, view]);
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const regressions = rows.filter((m) => isRegression(m.level)).length;
  const toggle = (id: number) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const sortBy = (key: SortKey) =>
    onView({ sort: key, dir: view.sort === key && view.dir === "desc" ? "asc" : "desc" });

  return (
    <Section>
      <div className={styles.controls}>
        <h2>Measurements</h2>
        <Choice
          type="checkbox"
          checked={view.onlyRegressions}
          onChange={(e) => onView({ onlyRegressions: e.target.checked })}
        >
          Only regressions ({regressions})
        </Choice>
        <input
          type="search"
          className={styles.search}
          placeholder="Filter by benchmark, metric or verdict"
          aria-label="Filter measurements"
          value={view.query}
          onChange={(e) => onView({ query: e.target.value })}
        />
        <span className="muted small" data-testid="row-count">
          {shown.length} of {rows.length}
        </span>
      </div>
      {shown.length === 0 ? (
        <Empty title={rows.length ? "No measurement matches" : "This run has no measurements"}>
          {rows.length
            ? "Clear the filters to see every measurement."
            : "Results appear here once the run uploads them."}
        </Empty>
      ) : (
        <Table testId="measurements">
          <thead>
            <Headings view={view} onSort={sortBy} />
          </thead>
          <tbody>
            {shown.map((m) => (
              <MeasurementRow
                key={m.measurement_id}
                m={m}
                expanded={open.has(m.measurement_id)}
                onToggle={() => toggle(m.measurement_id)}
                onAccept={onAccept}
                accepted={accepted?.[m.measurement_id]}
              />
            ))}
          </tbody>
        </Table>
      )}
    </Section>
  );
}
