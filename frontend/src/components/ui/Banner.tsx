import clsx from "clsx";
import type { ReactNode } from "react";
import styles from "@/components/ui/Banner.module.css";

interface BannerProps {
  tone: "error" | "warn";
  /** Full width under the top bar, rather than a box inside the page. */
  wide?: boolean;
  testId?: string;
  children: ReactNode;
}

/** A message strip; errors are announced (role="alert"). */
export function Banner({ tone, wide = false, testId, children }: BannerProps) {
  return (
    <div
      className={clsx(styles.banner, styles[tone], wide && styles.wide)}
      role={tone === "error" ? "alert" : undefined}
      data-testid={testId}
    >
      {children}
    </div>
  );
}
