import type { Schemas } from "@/api/types";
import { formatParameters } from "@/lib/format";
import { isRegression, LEVELS, toLevel } from "@/lib/verdict";

export type Measurement = Schemas["VerdictRead"];
export type SortKey = "verdict" | "benchmark" | "metric" | "change" | "p";
export type SortDir = "asc" | "desc";

export interface MeasurementView {
  onlyRegressions: boolean;
  query: string;
  sort: SortKey;
  dir: SortDir;
}

export const SORT_KEYS: readonly SortKey[] = ["verdict", "benchmark", "metric", "change", "p"];

const nullLast = (a: number | null, b: number | null, dir: number) =>
  a === null && b === null ? 0 : a === null ? 1 : b === null ? -1 : (a - b) * dir;

function compare(a: Measurement, b: Measurement, sort: SortKey, dir: SortDir): number {
  const d = dir === "asc" ? 1 : -1;
  switch (sort) {
    case "benchmark":
      return (
        d *
        (a.benchmark.localeCompare(b.benchmark) ||
          formatParameters(a.parameters).localeCompare(formatParameters(b.parameters)))
      );
    case "metric":
      return d * a.metric.localeCompare(b.metric);
    case "change":
      return nullLast(a.change_pct, b.change_pct, d);
    case "p":
      return nullLast(a.p_value, b.p_value, d);
    default: {
      // Worst verdict first, then the biggest change towards worse.
      const rank = LEVELS[toLevel(a.level)].rank - LEVELS[toLevel(b.level)].rank;
      return d * -rank || nullLast(a.change_pct, b.change_pct, -1);
    }
  }
}

/**
 * Rows a person may accept as an expected change: a point the detector suspects or confirmed, or
 * any regression or improvement (the baseline then restarts at this run).
 */
export function acceptable(m: Measurement): boolean {
  return (
    m.stage === "suspected" || m.stage === "confirmed" || isRegression(m.level) || m.level === "improved"
  );
}

/** Filter ("only regressions", a text query) and sort a run's measurements; never mutates its input. */
export function selectMeasurements(rows: readonly Measurement[], view: MeasurementView): Measurement[] {
  const q = view.query.trim().toLowerCase();
  return rows
    .filter((m) => !view.onlyRegressions || isRegression(m.level))
    .filter(
      (m) =>
        !q ||
        `${m.benchmark} ${formatParameters(m.parameters)} ${m.metric} ${LEVELS[toLevel(m.level)].label}`
          .toLowerCase()
          .includes(q),
    )
    .sort((a, b) => compare(a, b, view.sort, view.dir) || a.measurement_id - b.measurement_id);
}
