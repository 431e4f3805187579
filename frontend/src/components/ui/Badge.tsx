import clsx from "clsx";
import type { ReactNode } from "react";
import styles from "@/components/ui/Badge.module.css";
import type { Level } from "@/lib/verdict";

export type Tone = Level | "success" | "info" | "muted";

interface BadgeProps {
  tone: Tone;
  /** A rounded pill (verdicts, languages) or a small outlined tag (states). */
  shape?: "pill" | "tag";
  title?: string;
  level?: string;
  stage?: string;
  children: ReactNode;
}

/** A short coloured label; its words carry the meaning, the colour repeats it. */
export function Badge({ tone, shape = "pill", title, level, stage, children }: BadgeProps) {
  return (
    <span className={clsx(styles[shape], styles[tone])} title={title} data-level={level} data-stage={stage}>
      {children}
    </span>
  );
}
