/** Pure shaping of the backtest page: the form's defaults and request, the result rows, chart marks. */
import type { Schemas } from "@/api/types";
import type { StepInput } from "@/components/charts/marks";
import { formatParameters } from "@/lib/format";

type System = Schemas["SystemDetail"];
type Read = Schemas["BacktestRead"];
type Series = Schemas["BacktestSeries"];
type Alert = Schemas["BacktestAlert"];

export interface Pair {
  warn: string;
  fail: string;
}

export interface BacktestForm {
  scope: "all" | "one";
  /** The picked series' key (seriesKey), when scope is "one". */
  series: string | null;
  branch: string;
  /** null: every testbed. */
  testbed: string | null;
  thresholds: Pair;
  /** A metric's own thresholds, where it does not follow `thresholds`. */
  perMetric: Record<string, Pair>;
  maxRuns: string;
}

export interface SeriesOption {
  key: string;
  benchmarkId: number;
  benchmark: string;
  parameters: string;
  metric: string;
}

export const seriesKey = (benchmarkId: number, metric: string) => `${benchmarkId}:${metric}`;

/** Every benchmark variant × each metric it measures, by name. */
export function seriesOptions(system: System): SeriesOption[] {
  return system.benchmarks
    .flatMap((b) =>
      (b.metrics ?? []).map((metric) => ({
        key: seriesKey(b.id, metric),
        benchmarkId: b.id,
        benchmark: b.name,
        parameters: formatParameters(b.parameters),
        metric,
      })),
    )
    .sort((a, b) => a.benchmark.localeCompare(b.benchmark) || a.parameters.localeCompare(b.parameters));
}

export const describeOption = (o: SeriesOption) =>
  `${o.benchmark}${o.parameters ? ` (${o.parameters})` : ""} · ${o.metric}`;

const text = (n: number) => String(n);

const samePair = (a: Pair, b: Pair) => Number(a.warn) === Number(b.warn) && Number(a.fail) === Number(b.fail);

/** The thresholds most of the system's metrics have now (5/10 when it has none). */
export function commonThresholds(metrics: readonly Schemas["MetricRead"][]): Pair {
  const count = new Map<string, number>();
  for (const m of metrics) {
    const k = `${m.warn_threshold}/${m.fail_threshold}`;
    count.set(k, (count.get(k) ?? 0) + 1);
  }
  let best: string | null = null;
  for (const [k, n] of count) if (best === null || n > count.get(best)!) best = k;
  const [warn, fail] = (best ?? "5/10").split("/");
  return { warn: warn!, fail: fail! };
}

/** Defaults: every series of the branch "main" (else the first), every testbed, the thresholds most
 * metrics have now; a metric with other thresholds now starts with them as its own. */
export function initialForm(system: System): BacktestForm {
  const main = system.branches.some((b) => b.name === "main") ? "main" : (system.branches[0]?.name ?? "main");
  const thresholds = commonThresholds(system.metrics);
  const own = system.metrics
    .map((m) => [m.name, { warn: text(m.warn_threshold), fail: text(m.fail_threshold) }] as const)
    .filter(([, p]) => !samePair(p, thresholds));
  return {
    scope: "all",
    series: null,
    branch: main,
    testbed: null,
    thresholds,
    perMetric: Object.fromEntries(own),
    maxRuns: "500",
  };
}

/** Why a pair of thresholds is refused, or null (the server checks the same: 0 < warn < fail ≤ 1000). */
export function thresholdProblem(p: Pair, where: string): string | null {
  const warn = Number(p.warn);
  const fail = Number(p.fail);
  if (p.warn.trim() === "" || p.fail.trim() === "" || !Number.isFinite(warn) || !Number.isFinite(fail))
    return `${where}: warn and fail must be numbers.`;
  if (!(warn > 0)) return `${where}: warn must be above 0 %.`;
  if (!(warn < fail)) return `${where}: warn (${warn} %) must be below fail (${fail} %).`;
  if (fail > 1000) return `${where}: fail must be at most 1000 %.`;
  return null;
}

/** The request for the form, or the problems to fix first. Metrics whose own thresholds equal the
 * general ones are not sent as overrides. */
export function requestBody(
  slug: string,
  form: BacktestForm,
  options: readonly SeriesOption[],
): { body: Schemas["BacktestRequest"] } | { problems: string[] } {
  const problems: string[] = [];
  const general = thresholdProblem(form.thresholds, "Thresholds");
  if (general) problems.push(general);
  const overrides = Object.entries(form.perMetric).filter(([, p]) => !samePair(p, form.thresholds));
  for (const [metric, p] of overrides) {
    const problem = thresholdProblem(p, metric);
    if (problem) problems.push(problem);
  }
  const picked = form.scope === "one" ? options.find((o) => o.key === form.series) : undefined;
  if (form.scope === "one" && !picked) problems.push("Pick the series to replay.");
  const maxRuns = Number(form.maxRuns);
  if (!Number.isInteger(maxRuns) || maxRuns < 20 || maxRuns > 5000)
    problems.push("Runs per series: a whole number from 20 to 5000.");
  if (problems.length) return { problems };
  return {
    body: {
      system: slug,
      branch: form.branch,
      testbed: form.testbed,
      benchmark_id: picked?.benchmarkId ?? null,
      metric: picked?.metric ?? null,
      warn: Number(form.thresholds.warn),
      fail: Number(form.thresholds.fail),
      overrides: overrides.map(([metric, p]) => ({ metric, warn: Number(p.warn), fail: Number(p.fail) })),
      max_runs: maxRuns,
    },
  };
}

/** Where a replayed series is charted on the system page (its whole history). */
export function seriesLink(slug: string, branch: string, s: Series): string {
  const q = new URLSearchParams({
    benchmark: s.benchmark,
    metric: s.metric,
    params: s.params_key,
    range: "all",
  });
  if (branch !== "main") q.set("branch", branch);
  q.set("testbed", s.testbed);
  return `/systems/${encodeURIComponent(slug)}?${q}`;
}

const same = (a: Alert, b: Alert) => a.run_id === b.run_id && a.level === b.level && a.kind === b.kind;

/** True when the replay would have opened other alerts than those that did open. */
export function differs(s: Series): boolean {
  return (
    s.would_open.length !== s.did_open.length || s.would_open.some((a) => !s.did_open.some((b) => same(a, b)))
  );
}

/** The series to list: those that differ first (kept in the server's order within), or only them. */
export function resultRows(read: Read, onlyDiffering: boolean): Series[] {
  const rows = onlyDiffering ? read.series.filter(differs) : read.series;
  return [...rows.filter(differs), ...rows.filter((s) => !differs(s))];
}

/** The alerts that would have opened, as chart marks at their first bad run. */
export function wouldMarks(s: Series): StepInput[] {
  return s.would_open.map((a, i) => ({
    alert_id: -(i + 1),
    run_id: a.run_id,
    level: a.level,
    status: "would open",
    change_pct: a.change_pct,
    confirmed_by: a.confirmed_by,
    commit: a.commit,
  }));
}

/** "2 alerts · 0.25 per 100 runs", "no alerts". */
export function countsText(c: Schemas["Counts"]): string {
  if (c.events === 0) return "no alerts";
  return `${c.events} alert${c.events === 1 ? "" : "s"} · ${c.per_100_runs} per 100 runs`;
}
