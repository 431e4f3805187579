import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router";

export interface CompareSearch {
  system: string | null;
  base: number | null;
  head: number | null;
}

const toId = (v: string | null) => (v && /^\d+$/.test(v) ? Number(v) : null);

export function useCompareSearch(): [CompareSearch, (patch: Partial<CompareSearch>) => void] {
  const [sp, setSp] = useSearchParams();
  const search = useMemo(
    () => ({ system: sp.get("system") || null, base: toId(sp.get("base")), head: toId(sp.get("head")) }),
    [sp],
  );
  const update = useCallback(
    (patch: Partial<CompareSearch>) =>
      setSp((prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(patch)) {
          if (v === null || v === undefined || v === "") next.delete(k);
          else next.set(k, String(v));
        }
        return next;
      }),
    [setSp],
  );
  return [search, update];
}
