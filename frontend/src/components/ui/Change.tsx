import clsx from "clsx";
import type { ReactNode } from "react";
import styles from "@/components/ui/Change.module.css";
import { formatChange } from "@/lib/format";
import { toLevel } from "@/lib/verdict";

interface ChangeProps {
  pct: number | null | undefined;
  /** The verdict that colours it; regressions listed as such pass "fail". */
  level: string | null | undefined;
  title?: string;
  children?: ReactNode;
}

/** A signed change in per cent ("+11.8 %", positive is worse), coloured by its verdict. */
export function Change({ pct, level, title, children }: ChangeProps) {
  return (
    <span className={clsx(styles.change, styles[toLevel(level)])} title={title}>
      {formatChange(pct)}
      {children}
    </span>
  );
}
