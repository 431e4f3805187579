/** Verdict levels: their words, colours, marker shapes, and one-sentence explanations. */
import { color, type ColorToken } from "@/lib/tokens";

export type Level = "fail" | "warn" | "improved" | "noisy" | "unstable" | "ok" | "learning" | "no_baseline";
export type Shape = "triangleDown" | "diamond" | "triangleUp" | "ring" | "square" | "dot" | "hollow";

export interface LevelInfo {
  label: string;
  description: string;
  shape: Shape;
  /** The colour, as a reference to its design token. */
  color: ColorToken;
  /** Sort rank: the worst first. */
  rank: number;
}

export const LEVELS: Record<Level, LevelInfo> = {
  fail: {
    label: "Fail",
    description: "worse beyond the fail threshold",
    shape: "triangleDown",
    color: color.fail,
    rank: 0,
  },
  warn: {
    label: "Warn",
    description: "worse beyond the warn threshold",
    shape: "diamond",
    color: color.warn,
    rank: 1,
  },
  unstable: {
    label: "Unstable",
    description: "samples vary too much",
    shape: "square",
    color: color.unstable,
    rank: 2,
  },
  noisy: {
    label: "Noisy",
    description: "a change, but not significant",
    shape: "ring",
    color: color.noisy,
    rank: 3,
  },
  improved: {
    label: "Improved",
    description: "better beyond the threshold",
    shape: "triangleUp",
    color: color.improved,
    rank: 4,
  },
  ok: { label: "OK", description: "within the thresholds", shape: "dot", color: color.ok, rank: 5 },
  learning: {
    label: "Learning",
    description: "too few runs yet to measure the noise: not judged",
    shape: "hollow",
    color: color.muted,
    rank: 6,
  },
  no_baseline: {
    label: "No baseline",
    description: "nothing earlier to compare with",
    shape: "hollow",
    color: color.muted,
    rank: 7,
  },
};

export const LEVEL_ORDER = Object.keys(LEVELS) as Level[];

/** The level for any string the API sends; unknown values read as "ok" would hide problems, so they map to noisy. */
export function toLevel(level: string | null | undefined): Level {
  if (!level) return "no_baseline";
  return level in LEVELS ? (level as Level) : "noisy";
}

export const isRegression = (level: string | null | undefined): boolean =>
  level === "fail" || level === "warn";

const TIME_UNITS = new Set(["ns", "us", "µs", "ms", "s", "ns/op", "ns/iter"]);

function words(unit: string, direction: string): [string, string] {
  const timelike = TIME_UNITS.has(unit) || (direction === "higher_is_better" && unit.endsWith("/s"));
  return timelike ? ["slower", "faster"] : ["worse", "better"];
}

/** "the median of runs #41–#45", "run #7", "the pinned baseline run #3". */
export function describeRuns(runIds: readonly number[], source: string | null | undefined): string {
  const ids = [...runIds].sort((a, b) => a - b);
  if (source === "pinned" && ids.length) return `the pinned baseline run #${ids[0]}`;
  if (!ids.length) return "the baseline";
  if (ids.length === 1) return `run #${ids[0]}`;
  const contiguous = ids.every((id, i) => id === ids[0]! + i);
  if (contiguous) return `the median of runs #${ids[0]}–#${ids[ids.length - 1]}`;
  return `the median of runs ${ids.map((i) => `#${i}`).join(", ")}`;
}

function pText(p: number): string {
  return p >= 0.001 ? String(Number(p.toPrecision(3))) : p.toExponential(1);
}

export interface VerdictFields {
  level: string;
  reason?: string | null;
  change_pct: number | null;
  p_value: number | null;
  z_score?: number | null;
  gate?: string | null;
  warn_threshold: number;
  fail_threshold: number;
  baseline_run_ids: readonly number[];
  baseline_source?: string | null;
  unit: string;
  direction: string;
  cv?: number | null;
}

/** Say in one sentence why a measurement got its verdict (mirrors the backend's wording). */
export function verdictSentence(v: VerdictFields): string {
  if (v.level === "no_baseline") return "No earlier run on this branch and testbed to compare with.";
  const [worse, better] = words(v.unit, v.direction);
  const base = describeRuns(v.baseline_run_ids, v.baseline_source);
  const c = v.change_pct;
  const size =
    c === null
      ? `${worse} than ${base} (which was 0)`
      : `${Math.abs(c).toFixed(1)} % ${c >= 0 ? worse : better} than ${base}`;
  let evidence = "";
  if (v.gate === "welch" && v.p_value !== null) evidence = `p = ${pText(v.p_value)}`;
  else if (v.gate === "mad") {
    const z = v.z_score === null || v.z_score === undefined ? "∞" : v.z_score.toFixed(1);
    evidence = `robust z = ${z} against the series' recent history`;
  } else if (v.gate === "history-too-short") evidence = "too little history for a noise test";
  const w = String(v.warn_threshold);
  const f = String(v.fail_threshold);
  switch (v.level) {
    case "fail":
      return `${size} (${evidence}); fail threshold ${f} %.`;
    case "warn":
      return `${size} (${evidence}); warn threshold ${w} %, fail threshold ${f} %.`;
    case "improved":
      return `${size} (${evidence}); improvement threshold ${w} %.`;
    case "noisy":
      return `${size}, but not significant (${evidence}; needs ${v.gate === "welch" ? "p < 0.05" : "z ≥ 4"}): treated as noise.`;
    case "unstable": {
      const spread = v.cv !== null && v.cv !== undefined ? `cv ${(v.cv * 100).toFixed(1)} %` : "high spread";
      return `Samples vary too much to judge (${spread} > 10 %); ${size}.`;
    }
    case "learning":
      return `${size}; learning, not judged yet${v.reason ? `: ${v.reason}` : ""}.`;
    default:
      return `Within ${w} % of ${base} (${size}).`;
  }
}
