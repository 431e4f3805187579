import { useEffect, useState, type RefObject } from "react";

/** How far ahead of the viewport a chart starts rendering, so scrolling finds it drawn. */
const AHEAD = "400px 0px";

// Charts that came into view draw one per frame, in page order (what needs a look first), not in
// the order their observers happened to report, so the first chart paints after one chart's
// work, not after every visible one's, and the page answers input between them.
const waiting: Array<{ el: Element; show: () => void }> = [];
let pumping = false;

const earlier = (a: Element, b: Element) =>
  a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;

function pump() {
  waiting.sort((a, b) => earlier(a.el, b.el));
  const next = waiting.shift();
  if (!next) {
    pumping = false;
    return;
  }
  next.show();
  requestAnimationFrame(() => setTimeout(pump, 0));
}

function reveal(el: Element, show: () => void) {
  waiting.push({ el, show });
  if (!pumping) {
    pumping = true;
    // The observers of one frame report together: let them all queue before the first draws.
    setTimeout(pump, 0);
  }
}

/** True once the element has come near the viewport and its turn to draw came (then it stays true). */
export function useInView(ref: RefObject<Element | null>): boolean {
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (seen || !el) return;
    if (typeof IntersectionObserver === "undefined") {
      setSeen(true);
      return;
    }
    let live = true;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer.disconnect();
        reveal(el, () => live && setSeen(true));
      },
      { rootMargin: AHEAD },
    );
    observer.observe(el);
    return () => {
      live = false;
      observer.disconnect();
    };
  }, [ref, seen]);
  return seen;
}
