import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router";
import { SORT_KEYS, type MeasurementView, type SortKey } from "@/features/run/hooks/measurementView";

/** The measurement table's filter and sort, kept in the URL. */
export function useRunSearch(): [MeasurementView, (patch: Partial<MeasurementView>) => void] {
  const [sp, setSp] = useSearchParams();
  const view = useMemo((): MeasurementView => {
    const sort = sp.get("sort") as SortKey | null;
    return {
      onlyRegressions: sp.get("only") === "regressions",
      query: sp.get("q") ?? "",
      sort: sort && SORT_KEYS.includes(sort) ? sort : "verdict",
      dir: sp.get("dir") === "asc" ? "asc" : "desc",
    };
  }, [sp]);
  const update = useCallback(
    (patch: Partial<MeasurementView>) =>
      setSp(
        (prev) => {
          const next = new URLSearchParams(prev);
          const set = (k: string, v: string | null) => (v ? next.set(k, v) : next.delete(k));
          if ("onlyRegressions" in patch) set("only", patch.onlyRegressions ? "regressions" : null);
          if ("query" in patch) set("q", patch.query || null);
          if ("sort" in patch) set("sort", patch.sort === "verdict" ? null : (patch.sort ?? null));
          if ("dir" in patch) set("dir", patch.dir === "asc" ? "asc" : null);
          return next;
        },
        { replace: true },
      ),
    [setSp],
  );
  return [view, update];
}
