import clsx from "clsx";
import { useEffect, useRef, useState, type ReactNode } from "react";
import styles from "@/features/system/components/FilterBar.module.css";

interface FilterBarProps {
  /** What the filters are set to, in a few words (shown in the compact bar). */
  summary: string;
  children: ReactNode;
}

/**
 * The system page's filters: in the page's flow at its top; once they scroll away only a compact
 * sticky bar stays (what is filtered and a "Filters" button). The button opens the same panel inside
 * the bar, with a placeholder of its height left in the flow so nothing below jumps.
 */
export function FilterBar({ summary, children }: FilterBarProps) {
  const home = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState(0);
  const [open, setOpen] = useState(false);
  const [scrolled, setScrolled] = useState(false);

  useEffect(() => {
    const el = home.current;
    if (!el || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(([entry]) => {
      if (!entry) return;
      const away = !entry.isIntersecting && entry.boundingClientRect.top < 0;
      setScrolled(away);
      if (!away) setOpen(false);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const inBar = scrolled && open;
  const toggle = () => {
    if (!inBar && home.current) setHeight(home.current.offsetHeight);
    setOpen(!open);
  };
  return (
    <>
      <div ref={home} className={styles.home} style={inBar ? { height } : undefined}>
        {inBar ? null : <div className={styles.panel}>{children}</div>}
      </div>
      <div className={clsx(styles.bar, scrolled && styles.shown)} data-testid="filter-bar">
        <span className={styles.summary}>{summary}</span>
        <button
          type="button"
          className={styles.toggle}
          aria-expanded={inBar}
          aria-controls="filter-bar-panel"
          onClick={toggle}
        >
          Filters
        </button>
        {inBar ? (
          <div id="filter-bar-panel" className={clsx(styles.panel, styles.floating)}>
            {children}
          </div>
        ) : null}
      </div>
    </>
  );
}
