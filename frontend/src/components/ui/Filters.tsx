import type { ReactNode } from "react";
import styles from "@/components/ui/Filters.module.css";

/** A row of labelled selects and inputs that change the view at once (nothing to submit). */
export function Filters({ label, children }: { label?: string; children: ReactNode }) {
  return (
    <form className={styles.filters} onSubmit={(e) => e.preventDefault()} aria-label={label}>
      {children}
    </form>
  );
}
