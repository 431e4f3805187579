import { useEffect, type RefObject } from "react";

declare global {
  interface Window {
    /** When each chart first painted, in ms since navigation start (read by the e2e timing). */
    __benchdashPaint?: Record<string, number>;
  }
}

/**
 * Record the frame in which `selector` first appears inside `ref`. Recharts draws after measuring
 * its container, outside the owning component's renders, so this watches the DOM instead.
 */
export function usePaintMark(ref: RefObject<HTMLElement | null>, key: string, selector: string): void {
  useEffect(() => {
    const el = ref.current;
    if (!el || window.__benchdashPaint?.[key] !== undefined) return;
    let frame = 0;
    const check = () => {
      if (frame || !el.querySelector(selector)) return;
      observer.disconnect();
      frame = requestAnimationFrame(() => {
        window.__benchdashPaint ??= {};
        window.__benchdashPaint[key] ??= performance.now();
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
