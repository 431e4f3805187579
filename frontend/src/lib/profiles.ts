/**
 * Profiles (issue 30) shaped for the flame graph and the function tables. Pure functions over the
 * shapes of `GET /profiles/{id}` and `GET /profiles/diff` (docs: the profiles contract):
 * self(f) = weight of the stacks whose leaf is f, inclusive(f) = weight of the stacks f is in.
 */
import { formatNumber, formatValue } from "@/lib/format";

/** A frame of one profile: `value` is its inclusive cost, `self` its own. */
export interface ProfileNode {
  name: string;
  value: number;
  self: number;
  children: readonly ProfileNode[];
}

/** A frame of a differential profile: `value` in the head, `delta` = head − base (inclusive). */
export interface DiffNode {
  name: string;
  value: number;
  delta: number;
  base_value: number;
  children: readonly DiffNode[];
}

export interface ProfileFunction {
  name: string;
  self: number;
  inclusive: number;
}

export interface DiffFunction {
  name: string;
  self_base: number;
  self_head: number;
  delta_self: number;
  pct_of_base_total: number;
}

/** What d3-flame-graph draws: fresh objects (it marks frames as faded or hidden while zooming). */
export interface FlameDatum {
  name: string;
  value: number;
  delta?: number;
  base?: number;
  children: FlameDatum[];
}

export const toFlameData = (node: ProfileNode): FlameDatum => ({
  name: node.name,
  value: node.value,
  children: node.children.map(toFlameData),
});

/** The head's frames sized by their head cost (a frame gone from the head has no width). */
export const toDiffFlameData = (node: DiffNode): FlameDatum => ({
  name: node.name,
  value: node.value,
  delta: node.delta,
  base: node.base_value,
  children: node.children.map(toDiffFlameData),
});

const UNIT_SHORT: Record<string, string> = { nanoseconds: "ns", instructions: "Ir", samples: "samples" };

/** A profile weight in its unit: "48.2k Ir", "1.23 ms", "310 samples". */
export function formatWeight(value: number, unit: string): string {
  if (unit === "nanoseconds") return formatValue(value, "ns");
  const abs = Math.abs(value);
  const short = UNIT_SHORT[unit] ?? unit;
  const [scaled, suffix] =
    abs >= 1e9
      ? [value / 1e9, "G"]
      : abs >= 1e6
        ? [value / 1e6, "M"]
        : abs >= 1e4
          ? [value / 1e3, "k"]
          : [value, ""];
  return `${formatNumber(scaled)}${suffix} ${short}`;
}

/** A share of a total in percent, "12.3 %" (— without a total). */
export function formatShare(part: number, total: number): string {
  if (!total) return "—";
  return `${formatNumber((100 * part) / total)} %`;
}

/** A signed percentage with one decimal, as the API's root-cause summary says it: "+9.8 %", "−0.3 %". */
export function formatSignedPct(pct: number): string {
  if (!Number.isFinite(pct)) return "—";
  const text = Math.abs(pct).toFixed(1);
  return text === "0.0" ? "0.0 %" : `${pct > 0 ? "+" : "\u2212"}${text} %`;
}

/** A signed weight, "+4.1k Ir". */
export const formatSignedWeight = (value: number, unit: string): string =>
  value > 0 ? `+${formatWeight(value, unit)}` : value < 0 ? `\u2212${formatWeight(-value, unit)}` : "0";

export interface FunctionRow extends ProfileFunction {
  selfPct: number;
  inclusivePct: number;
}

/** The top functions table: heaviest self cost first, each with its share of the total. */
export function functionRows(functions: readonly ProfileFunction[], total: number): FunctionRow[] {
  const pct = (v: number) => (total > 0 ? (100 * v) / total : 0);
  return [...functions]
    .sort((a, b) => b.self - a.self || b.inclusive - a.inclusive || a.name.localeCompare(b.name))
    .map((f) => ({ ...f, selfPct: pct(f.self), inclusivePct: pct(f.inclusive) }));
}

/** The differential table: what grew most first, then what shrank least. */
export const diffRows = (functions: readonly DiffFunction[]): DiffFunction[] =>
  [...functions].sort((a, b) => b.delta_self - a.delta_self || a.name.localeCompare(b.name));

export type DiffTone = "grew" | "shrank" | "same";

/** How strongly a frame changed, 0 (not at all) to 4 (mostly new or gone). */
export type DiffStrength = 0 | 1 | 2 | 3 | 4;

const STRENGTH_STEPS: readonly [number, DiffStrength][] = [
  [0.4, 4],
  [0.15, 3],
  [0.05, 2],
  [0.005, 1],
];

/**
 * A frame's colour class: red when its inclusive cost grew, blue when it shrank, by how much of its
 * larger side (so a new frame and a removed one both count fully); under 0.5 % it is unchanged.
 */
export function diffTone(
  delta: number,
  value: number,
  base: number,
): { tone: DiffTone; strength: DiffStrength } {
  const ref = Math.max(value, base, Math.abs(delta));
  const ratio = ref > 0 ? Math.abs(delta) / ref : 0;
  const strength = STRENGTH_STEPS.find(([min]) => ratio >= min)?.[1] ?? 0;
  if (strength === 0) return { tone: "same", strength: 0 };
  return { tone: delta > 0 ? "grew" : "shrank", strength };
}

/** The frame's tooltip: its cost and share, and in a diff its change against the base. */
export function frameLabel(d: FlameDatum, total: number, unit: string): string {
  const head = `${d.name}: ${formatWeight(d.value, unit)} (${formatShare(d.value, total)})`;
  if (d.delta === undefined) return head;
  const base = d.base ?? d.value - d.delta;
  const rel = base > 0 ? ` (${formatSignedPct((100 * d.delta) / base)})` : d.delta > 0 ? " (new)" : "";
  return `${head}, ${formatSignedWeight(d.delta, unit)}${rel} against the base`;
}

interface ProfileSummary {
  id: number;
  benchmark_id: number;
  benchmark: string;
  parameters: Record<string, unknown>;
  kind: string;
}

export interface SharedProfile {
  /** "benchmarkId:kind", the picker's value (kept in the URL). */
  key: string;
  benchmarkId: number;
  benchmark: string;
  parameters: Record<string, unknown>;
  kind: string;
}

/** The benchmark and kind pairs both runs have a profile of (the compare view's choices), by name. */
export function sharedProfiles(
  base: readonly ProfileSummary[],
  head: readonly ProfileSummary[],
): SharedProfile[] {
  const key = (p: ProfileSummary) => `${p.benchmark_id}:${p.kind}`;
  const inHead = new Set(head.map(key));
  const out = new Map<string, SharedProfile>();
  for (const p of base) {
    const k = key(p);
    if (!inHead.has(k) || out.has(k)) continue;
    out.set(k, {
      key: k,
      benchmarkId: p.benchmark_id,
      benchmark: p.benchmark,
      parameters: p.parameters,
      kind: p.kind,
    });
  }
  return [...out.values()].sort(
    (a, b) =>
      a.benchmark.localeCompare(b.benchmark) || a.benchmarkId - b.benchmarkId || a.kind.localeCompare(b.kind),
  );
}
