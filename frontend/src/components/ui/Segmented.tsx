import clsx from "clsx";
import type { ReactNode } from "react";
import styles from "@/components/ui/Segmented.module.css";

interface SegmentedProps {
  /** "tablist" for tabs (aria-selected), "group" for toggle buttons (aria-pressed). */
  role: "tablist" | "group";
  label?: string;
  className?: string;
  children: ReactNode;
}

/** A row of joined buttons, one of them chosen. */
export function Segmented({ role, label, className, children }: SegmentedProps) {
  return (
    <div className={clsx(styles.segmented, className)} role={role} aria-label={label}>
      {children}
    </div>
  );
}

interface SegmentProps {
  selected: boolean;
  tab?: boolean;
  onSelect: () => void;
  children: ReactNode;
}

/** One button of a Segmented row. */
export function Segment({ selected, tab = false, onSelect, children }: SegmentProps) {
  return (
    <button
      type="button"
      className={styles.segment}
      role={tab ? "tab" : undefined}
      aria-selected={tab ? selected : undefined}
      aria-pressed={tab ? undefined : selected}
      onClick={onSelect}
    >
      {children}
    </button>
  );
}
