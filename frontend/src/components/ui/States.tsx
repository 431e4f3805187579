import clsx from "clsx";
import type { ReactNode } from "react";
import { ApiError } from "@/api/errors";
import { Button } from "@/components/ui/Button";
import styles from "@/components/ui/States.module.css";

export function Loading({ label = "Loading…" }: { label?: string }) {
  return (
    <div className={clsx(styles.state, styles.loading)} role="status" aria-live="polite">
      <span className={styles.spinner} aria-hidden="true" />
      {label}
    </div>
  );
}

interface EmptyProps {
  title: string;
  children?: ReactNode;
  /** Inside a card: no dashed frame of its own. */
  plain?: boolean;
}

export function Empty({ title, children, plain = false }: EmptyProps) {
  return (
    <div className={clsx(styles.state, plain ? styles.plain : styles.empty)}>
      <strong>{title}</strong>
      {children ? <div className="muted">{children}</div> : null}
    </div>
  );
}

/** Explain a failed request in words; an unreachable API gets the same words as the global banner. */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const unreachable = error instanceof ApiError && error.unreachable;
  const notFound = error instanceof ApiError && error.status === 404;
  const title = unreachable
    ? "The benchdash API cannot be reached"
    : notFound
      ? "Not found"
      : "Something went wrong";
  const detail = error instanceof Error ? error.message : String(error);
  return (
    <div className={clsx(styles.state, styles.error)} role="alert">
      <strong>{title}</strong>
      <div className="muted">{detail}</div>
      {onRetry ? (
        <Button size="small" onClick={onRetry}>
          Try again
        </Button>
      ) : null}
    </div>
  );
}
