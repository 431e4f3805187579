import type { Level } from "@/api/types";
import clsx from "clsx";
import type { ReactNode } from "react";
import styles from "@/components/ui/Change.module.css";
import { formatChange } from "@/lib/format";
import { toLevel } from "@/lib/verdict";

interface ChangeProps {
  pct: number | null | undefined;
  /** The metric's direction: the change is shown the way the metric moved. */
  direction: string;
  /** The verdict that colours it; regressions listed as such pass "fail". */
  level: Level | null | undefined;
  title?: string;
  children?: ReactNode;
}

/** A change in the metric's own direction with a word ("−11.8 % · worse"), coloured by its verdict. */
export function Change({ pct, direction, level, title, children }: ChangeProps) {
  return (
    <span className={clsx(styles.change, styles[toLevel(level)])} title={title}>
      {formatChange(pct, direction)}
      {children}
    </span>
  );
}
