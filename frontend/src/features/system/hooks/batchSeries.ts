import type { Schemas } from "@/api/types";
import type { TrendPoint } from "@/components/charts/trendData";
import { formatParameters } from "@/lib/format";

export type Batch = Schemas["SeriesBatch"];
export type BatchSeries = Schemas["BatchSeries"];
type Runs = Batch["runs"];

/** A series' columns back as the chart's rows (oldest first). */
export function toPoints(s: BatchSeries, runs: Runs): TrendPoint[] {
  const c = s.points;
  return c.run.map((r, i) => ({
    run_id: runs.id[r]!,
    commit: runs.commit[r] ?? null,
    t: new Date(runs.t[r]!).toISOString(),
    value: c.value[i]!,
    min: c.min[i] ?? null,
    max: c.max[i] ?? null,
    stddev: c.stddev[i] ?? null,
    n: c.n[i]!,
    level: c.level[i] ?? null,
    stage: c.stage[i] ?? null,
    baseline: c.baseline[i] ?? null,
    change_pct: c.change_pct[i] ?? null,
    p_value: c.p_value[i] ?? null,
  }));
}

/** Stable key of a series on the page. */
export const seriesId = (s: BatchSeries) => `${s.benchmark_id}/${s.metric}`;

/** True when every word of `query` is in the benchmark's name, the metric or a parameter. */
export function matchesQuery(s: BatchSeries, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return true;
  const hay = `${s.benchmark} ${s.metric} ${formatParameters(s.parameters)}`.toLowerCase();
  return words.every((w) => hay.includes(w));
}

export interface Arranged {
  /** Regressed, then suspected series: shown first, outside the groups. */
  attention: BatchSeries[];
  /** The rest, by benchmark name (the server's order within). */
  groups: { name: string; series: BatchSeries[]; changed: number }[];
  shown: number;
}

const NEEDS_A_LOOK: ReadonlySet<string> = new Set<BatchSeries["state"]>(["regressed", "suspected"]);

/** The page's layout of a batch: filtered by the search and the "only changed" toggle. */
export function arrange(series: readonly BatchSeries[], query: string, onlyChanged: boolean): Arranged {
  const kept = series.filter((s) => matchesQuery(s, query) && (!onlyChanged || s.state !== "steady"));
  const attention = kept.filter((s) => NEEDS_A_LOOK.has(s.state));
  const byName = new Map<string, BatchSeries[]>();
  for (const s of kept) {
    if (NEEDS_A_LOOK.has(s.state)) continue;
    const list = byName.get(s.benchmark) ?? [];
    list.push(s);
    byName.set(s.benchmark, list);
  }
  const groups = [...byName.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, list]) => ({
      name,
      series: list,
      changed: list.filter((s) => s.state !== "steady").length,
    }));
  return { attention, groups, shown: kept.length };
}

/** The selector's value for a view (testbed × profile). */
export const viewValue = (testbed: string, profile: string | null) => JSON.stringify([testbed, profile]);
