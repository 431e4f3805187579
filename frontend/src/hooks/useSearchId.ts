import { useCallback } from "react";
import { useSearchParams } from "react-router";

/** A value kept in the URL under `key` (a permalink to what is open), or null. */
export function useSearchValue(key: string): [string | null, (value: string | null) => void] {
  const [sp, setSp] = useSearchParams();
  const update = useCallback(
    (value: string | null) =>
      setSp(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (value === null || value === "") next.delete(key);
          else next.set(key, value);
          return next;
        },
        { replace: true },
      ),
    [key, setSp],
  );
  return [sp.get(key) || null, update];
}

/** A positive integer kept in the URL under `key`, or null. */
export function useSearchId(key: string): [number | null, (id: number | null) => void] {
  const [raw, setRaw] = useSearchValue(key);
  const update = useCallback((id: number | null) => setRaw(id === null ? null : String(id)), [setRaw]);
  return [raw && /^[1-9]\d*$/.test(raw) ? Number(raw) : null, update];
}
