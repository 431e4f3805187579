/** Pure preparation of a series for the trend chart: time axis, bands and a y domain. */
import type { Level, Stage } from "@/api/types";

export interface TrendPoint {
  run_id: number;
  commit: string | null;
  t: string;
  value: number;
  min: number | null;
  max: number | null;
  stddev: number | null;
  n: number;
  level: Level | null;
  /** suspected, confirmed or dismissed (null: not staged). */
  stage?: Stage | null;
  baseline: number | null;
  change_pct: number | null;
  p_value: number | null;
}

export interface TrendDatum extends TrendPoint {
  x: number;
  range: [number, number] | null;
  warnBand: [number, number] | null;
  failBand: [number, number] | null;
}

export interface Thresholds {
  direction: string;
  warn: number;
  fail: number;
}

/** Chart rows plus a y domain that fits the data (bands beyond it are clipped, not allowed to squash it). */
/** About `count` round tick values covering [lo, hi] (1, 2, 2.5 or 5 times a power of ten apart). */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / Math.max(1, count - 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
  const first = Math.floor(lo / step) * step;
  const ticks: number[] = [];
  for (let v = first; v < hi + step * 0.999; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

const HOUR = 3_600_000;
const TIME_STEPS = [
  HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  24 * HOUR,
  2 * 24 * HOUR,
  7 * 24 * HOUR,
  14 * 24 * HOUR,
  30 * 24 * HOUR,
  91 * 24 * HOUR,
  365 * 24 * HOUR,
];

/** At most `count` time ticks on whole UTC steps (hours, days, weeks…) within [from, to]. */
export function timeTicks(from: number, to: number, count = 7): number[] {
  if (!(to > from)) return [from];
  const step = TIME_STEPS.find((s) => (to - from) / s <= count) ?? TIME_STEPS[TIME_STEPS.length - 1]!;
  const ticks: number[] = [];
  for (let t = Math.ceil(from / step) * step; t <= to; t += step) ticks.push(t);
  return ticks;
}

export function prepareTrend(
  points: readonly TrendPoint[],
  th: Thresholds,
): { data: TrendDatum[]; domain: [number, number]; ticks: number[]; xTicks: number[] } {
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of points) {
    for (const v of [p.value, p.min, p.max, p.baseline]) {
      if (v !== null && Number.isFinite(v)) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
  }
  if (!Number.isFinite(lo)) [lo, hi] = [0, 1];
  const span = hi - lo || Math.abs(hi) * 0.1 || 1;
  const ticks = niceTicks(Math.max(lo >= 0 ? 0 : -Infinity, lo - span * 0.08), hi + span * 0.08);
  const domain: [number, number] = [ticks[0]!, ticks[ticks.length - 1]!];
  const worseUp = th.direction !== "higher_is_better";
  const data = points.map((p): TrendDatum => {
    const hasRange = p.min !== null && p.max !== null && p.n > 1;
    let warnBand: [number, number] | null = null;
    let failBand: [number, number] | null = null;
    if (p.baseline !== null) {
      const b = p.baseline;
      const sign = worseUp ? 1 : -1;
      const w = b * (1 + (sign * th.warn) / 100);
      const f = b * (1 + (sign * th.fail) / 100);
      warnBand = worseUp ? [w, f] : [f, w];
      const edge = worseUp ? Math.max(domain[1], f) : Math.min(domain[0], f);
      failBand = worseUp ? [f, edge] : [edge, f];
    }
    return {
      ...p,
      x: new Date(p.t).getTime(),
      range: hasRange ? [p.min as number, p.max as number] : null,
      warnBand,
      failBand,
    };
  });
  const xTicks = data.length ? timeTicks(data[0]!.x, data[data.length - 1]!.x) : [];
  return { data, domain, ticks, xTicks };
}

/** The point nearest to a time, for clicks that land between markers. */
export function nearestByTime<T extends { x: number }>(data: readonly T[], x: number): T | undefined {
  let best: T | undefined;
  let bestDist = Infinity;
  for (const d of data) {
    const dist = Math.abs(d.x - x);
    if (dist < bestDist) {
      best = d;
      bestDist = dist;
    }
  }
  return best;
}

// One formatter for every tick: creating an Intl formatter per call costs tens of ms per chart.
const SHORT_DATE = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });

export const shortDate = (ms: number) => SHORT_DATE.format(ms);
