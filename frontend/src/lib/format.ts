/** Human formatting of measured values, changes, p-values and times. Pure functions. */

const TIME_SCALE: Record<string, number> = {
  ns: 1,
  "ns/op": 1,
  "ns/iter": 1,
  us: 1e3,
  µs: 1e3,
  ms: 1e6,
  s: 1e9,
};
const TIME_STEPS: [number, string][] = [
  [1e9, "s"],
  [1e6, "ms"],
  [1e3, "µs"],
  [1, "ns"],
];
const BINARY: [number, string][] = [
  [1024 ** 3, "Gi"],
  [1024 ** 2, "Mi"],
  [1024, "Ki"],
  [1, ""],
];
const BINARY_BASE: Record<string, number> = { B: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 };
const DECIMAL_BASE: Record<string, number> = { B: 1, KB: 1e3, kB: 1e3, MB: 1e6, GB: 1e9 };

/** A number with `digits` significant digits, without exponent notation for ordinary sizes. */
export function formatNumber(value: number, digits = 3): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return "0";
  const abs = Math.abs(value);
  if (abs >= 1e-3 && abs < 1e15) {
    return new Intl.NumberFormat("en-US", {
      maximumSignificantDigits: digits,
      useGrouping: abs >= 1e4,
    }).format(value);
  }
  return value.toExponential(Math.max(0, digits - 1));
}

function compact(value: number, digits: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${formatNumber(value / 1e9, digits)}G `;
  if (abs >= 1e6) return `${formatNumber(value / 1e6, digits)}M `;
  if (abs >= 1e4) return `${formatNumber(value / 1e3, digits)}k `;
  return `${formatNumber(value, digits)} `;
}

/** Format a value in its unit the way a person reads it: 1.23 ms, 16.5 k req/s, 12.0 MiB/s, 96.9 %. */
export function formatValue(value: number | null | undefined, unit: string, digits = 3): string {
  if (value === null || value === undefined || Number.isNaN(value)) return "—";
  const time = TIME_SCALE[unit];
  if (time !== undefined) {
    const ns = value * time;
    const abs = Math.abs(ns);
    const step = TIME_STEPS.find(([size]) => abs >= size) ?? TIME_STEPS[TIME_STEPS.length - 1]!;
    return `${formatNumber(ns / step[0], digits)} ${step[1]}`;
  }
  const rate = unit.endsWith("/s") ? unit.slice(0, -2) : null;
  const sized = rate ?? unit;
  const binary = BINARY_BASE[sized];
  const decimal = DECIMAL_BASE[sized];
  if (binary !== undefined && sized !== "B") {
    const bytes = value * binary;
    const abs = Math.abs(bytes);
    const step = BINARY.find(([size]) => abs >= size) ?? BINARY[BINARY.length - 1]!;
    return `${formatNumber(bytes / step[0], digits)} ${step[1]}B${rate !== null ? "/s" : ""}`;
  }
  if (decimal !== undefined && sized !== "B") {
    return `${formatNumber(value, digits)} ${unit}`;
  }
  if (unit === "%") return `${formatNumber(value, digits)} %`;
  if (unit === "" || unit === "count") return compact(value, digits).trimEnd();
  return `${compact(value, digits)}${unit}`;
}

/**
 * A change in the metric's own direction, with a word: a throughput that fell 11.8 % is
 * "−11.8 % · worse", a latency that rose 3 % is "+3.0 % · worse", one that fell is "−3.0 % · better".
 * The API's `change_pct` is positive when worse whatever the direction; it is never shown bare.
 */
export function formatChange(pct: number | null | undefined, direction: string): string {
  if (pct === null || pct === undefined || !Number.isFinite(pct)) return "—";
  const worse = Math.abs(pct) < 0.05 ? 0 : pct;
  if (worse === 0) return "±0.0 %";
  const moved = direction === "higher_is_better" ? -worse : worse;
  return `${moved > 0 ? "+" : "−"}${Math.abs(worse).toFixed(1)} % · ${worse > 0 ? "worse" : "better"}`;
}

/** A change on an axis shared by metrics of both directions: "12 % worse", "3 % better". */
export function formatWorse(pct: number): string {
  const worse = Math.abs(pct) < 0.05 ? 0 : pct;
  if (worse === 0) return "0 %";
  return `${Number(Math.abs(worse).toFixed(1))} % ${worse > 0 ? "worse" : "better"}`;
}

/** A p-value the way the backend writes it: 3 significant digits, exponent notation below 0.001. */
export function formatPValue(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return "—";
  if (p >= 0.001) return String(Number(p.toPrecision(3)));
  return p.toExponential(1).replace("e-", "e-");
}

/** Commit ids are shown short. */
export function shortCommit(commit: string | null | undefined): string {
  return commit ? commit.slice(0, 10) : "—";
}

const RELATIVE: [number, Intl.RelativeTimeFormatUnit][] = [
  [365 * 86400, "year"],
  [30 * 86400, "month"],
  [7 * 86400, "week"],
  [86400, "day"],
  [3600, "hour"],
  [60, "minute"],
  [1, "second"],
];

/** "3 days ago", relative to `now`. */
export function formatRelative(iso: string | null | undefined, now: Date = new Date()): string {
  if (!iso) return "—";
  const seconds = (new Date(iso).getTime() - now.getTime()) / 1000;
  if (!Number.isFinite(seconds)) return "—";
  const abs = Math.abs(seconds);
  const [size, unit] = RELATIVE.find(([s]) => abs >= s) ?? RELATIVE[RELATIVE.length - 1]!;
  return new Intl.RelativeTimeFormat("en", { numeric: "auto" }).format(Math.round(seconds / size), unit);
}

/** "2026-11-07 02:17 UTC". */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "—";
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** "9 min 0 s" between two instants; "—" when one is missing. */
export function formatDuration(
  startIso: string | null | undefined,
  endIso: string | null | undefined,
): string {
  if (!startIso || !endIso) return "—";
  const s = Math.round((new Date(endIso).getTime() - new Date(startIso).getTime()) / 1000);
  if (!Number.isFinite(s) || s < 0) return "—";
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/** Benchmark parameters as "threads=4 · connections=50"; empty string when there are none. */
export function formatParameters(parameters: Record<string, unknown> | null | undefined): string {
  if (!parameters) return "";
  return Object.entries(parameters)
    .map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(v) : String(v)}`)
    .join(" · ");
}

/** Significant digits that tell apart ticks `step` apart around `magnitude` (at least 3). */
export function digitsForStep(magnitude: number, step: number): number {
  if (!(step > 0) || !Number.isFinite(magnitude) || magnitude === 0) return 3;
  return Math.min(8, Math.max(3, Math.ceil(Math.log10(Math.abs(magnitude) / step)) + 1));
}
