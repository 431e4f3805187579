import type { ReactNode } from "react";
import styles from "@/components/ui/Table.module.css";

/** Class for numeric cells (right-aligned, tabular figures). */
export const numCell = styles.num;
/** Class for the bold benchmark name in a cell. */
export const nameCell = styles.name;

interface TableProps {
  testId?: string;
  /** Under the table, inside its frame (e.g. paging). */
  footer?: ReactNode;
  children: ReactNode;
}

/** A framed, horizontally scrolling data table. */
export function Table({ testId, footer, children }: TableProps) {
  return (
    <div className={styles.wrap}>
      <table className={styles.table} data-testid={testId}>
        {children}
      </table>
      {footer ? <div className={styles.footer}>{footer}</div> : null}
    </div>
  );
}
