/**
 * Verdict levels: their words, colours and marker shapes. The levels themselves are the API's
 * (the generated `Level` of src/api/schema.ts): `LEVELS` must name every one of them, or the
 * build fails; why a measurement got its verdict is the API's `explanation`, never re-worded here.
 */
import { type Level } from "@/api/types";
import { levelValues } from "@/api/schema";
import { color, type ColorToken } from "@/lib/tokens";

export type { Level };
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

const KNOWN: ReadonlySet<string> = new Set(levelValues);

/** True when `level` is one of the API's levels. */
export const isLevel = (level: string | null | undefined): level is Level => KNOWN.has(level ?? "");

/** A point's level for its marker and badge: a point without a verdict (null) has no baseline. */
export function toLevel(level: Level | null | undefined): Level {
  return level ?? "no_baseline";
}

export const isRegression = (level: Level | null | undefined): boolean =>
  level === "fail" || level === "warn";
