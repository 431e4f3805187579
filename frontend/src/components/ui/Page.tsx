import clsx from "clsx";
import type { ReactNode } from "react";
import styles from "@/components/ui/Page.module.css";

/** A page's body; `narrow` centres a small form. */
export function Page({ narrow = false, children }: { narrow?: boolean; children: ReactNode }) {
  return <div className={clsx(styles.page, narrow && styles.narrow)}>{children}</div>;
}

interface PageHeaderProps {
  title: ReactNode;
  crumbs?: ReactNode;
  children?: ReactNode;
}

/** Breadcrumbs, the page's heading and whatever explains it. */
export function PageHeader({ title, crumbs, children }: PageHeaderProps) {
  return (
    <div className={styles.head}>
      {crumbs ? <div className={styles.crumbs}>{crumbs}</div> : null}
      <h1>{title}</h1>
      {children}
    </div>
  );
}

/** Buttons under a page heading. */
export function PageActions({ children }: { children: ReactNode }) {
  return <div className={styles.actions}>{children}</div>;
}

interface SectionProps {
  title?: ReactNode;
  testId?: string;
  className?: string;
  children: ReactNode;
}

/** A titled block of a page. */
export function Section({ title, testId, className, children }: SectionProps) {
  return (
    <section className={clsx(styles.section, className)} data-testid={testId}>
      {title ? <h2 className={styles.title}>{title}</h2> : null}
      {children}
    </section>
  );
}
