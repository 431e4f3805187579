import { useEffect, type RefObject } from "react";

/** Prefix of the User Timing entries the charts leave: `benchdash:paint <key>`. */
export const PAINT_PREFIX = "benchdash:paint ";

/**
 * Leave a `performance.mark` at, and a `performance.measure` from navigation start to, the frame in which
 * `selector` first appears inside `ref` (once per chart key and page load), for DevTools and the e2e report.
 * Recharts draws after measuring its container, outside the owning component's renders, so
 * this watches the DOM instead.
 */
export function usePaintMark(ref: RefObject<HTMLElement | null>, key: string, selector: string): void {
  useEffect(() => {
    const el = ref.current;
    const name = PAINT_PREFIX + key;
    if (!el || performance.getEntriesByName(name, "measure").length) return;
    let frame = 0;
    const check = () => {
      if (frame || !el.querySelector(selector)) return;
      observer.disconnect();
      frame = requestAnimationFrame(() => {
        if (performance.getEntriesByName(name, "measure").length) return;
        const painted = performance.mark(name, { detail: { key } });
        performance.measure(name, { start: 0, end: painted.startTime, detail: { key } });
      });
    };
    const observer = new MutationObserver(check);
    observer.observe(el, { childList: true, subtree: true });
    check();
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [ref, key, selector]);
}
