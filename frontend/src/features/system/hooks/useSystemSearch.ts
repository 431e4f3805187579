import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router";

/** The system view's state, all of it in the URL so the page is a permalink. */
export interface SystemSearch {
  branch: string;
  testbed: string | null;
  /** A preset ("7d", "30d", "90d") or "all"; ignored when from/to are set. */
  range: string;
  from: string | null;
  to: string | null;
  profile: string | null;
  /** The chart to focus: the backend's series links carry benchmark and metric. */
  benchmark: string | null;
  metric: string | null;
  params: string | null;
  /** Words a series' benchmark, metric or parameters must contain. */
  q: string | null;
  /** Only series whose newest point changed (regressed, suspected, warn, fail, improved). */
  changed: boolean;
  /** "single": the old page, one request per chart (kept to measure it beside the batch). */
  charts: string | null;
}

const KEYS = [
  "branch",
  "testbed",
  "range",
  "from",
  "to",
  "profile",
  "benchmark",
  "metric",
  "params",
  "q",
  "changed",
  "charts",
] as const;
export const RANGES = ["7d", "30d", "90d", "all"] as const;

export function parseSystemSearch(sp: URLSearchParams): SystemSearch {
  const range = sp.get("range") ?? "all";
  return {
    branch: sp.get("branch") || "main",
    testbed: sp.get("testbed") || null,
    range: (RANGES as readonly string[]).includes(range) ? range : "all",
    from: sp.get("from") || null,
    to: sp.get("to") || null,
    profile: sp.get("profile") || null,
    benchmark: sp.get("benchmark") || null,
    metric: sp.get("metric") || null,
    params: sp.get("params") || null,
    q: sp.get("q") || null,
    changed: sp.get("changed") === "1",
    charts: sp.get("charts") || null,
  };
}

/** The [from, to] instants the series query uses, as ISO strings (null = open). */
export function timeWindow(s: SystemSearch, now: Date = new Date()): [string | null, string | null] {
  if (s.from || s.to) {
    const from = s.from ? new Date(`${s.from}T00:00:00Z`).toISOString() : null;
    const to = s.to ? new Date(`${s.to}T23:59:59Z`).toISOString() : null;
    return [from, to];
  }
  const days = { "7d": 7, "30d": 30, "90d": 90 }[s.range];
  if (!days) return [null, null];
  // Whole minutes, so the query key (and its cache) is stable across renders.
  const start = Math.floor((now.getTime() - days * 86_400_000) / 60_000) * 60_000;
  return [new Date(start).toISOString(), null];
}

export function useSystemSearch(): [SystemSearch, (patch: Partial<SystemSearch>) => void] {
  const [sp, setSp] = useSearchParams();
  const search = useMemo(() => parseSystemSearch(sp), [sp]);
  const update = useCallback(
    (patch: Partial<SystemSearch>) =>
      setSp(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const key of KEYS) {
            if (!(key in patch)) continue;
            const raw = patch[key];
            const v = typeof raw === "boolean" ? (raw ? "1" : null) : raw;
            if (
              v === null ||
              v === undefined ||
              v === "" ||
              (key === "range" && v === "all") ||
              (key === "branch" && v === "main")
            )
              next.delete(key);
            else next.set(key, v);
          }
          return next;
        },
        { replace: true },
      ),
    [setSp],
  );
  return [search, update];
}
