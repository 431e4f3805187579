import clsx from "clsx";
import type { ReactNode } from "react";
import { ApiError } from "@/api/errors";
import { Link } from "react-router";
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

interface ErrorStateProps {
  error: unknown;
  onRetry?: () => void;
  /** What a 404 was looking for ("Run #12"): the page's heading then says it is not there. */
  missing?: string;
  /** Where a 404 page leads back to (the overview unless told). */
  back?: { to: string; label: string };
}

/** A 404 as a page: a heading saying what is not there, the API's words, and a way back (no "Try again"). */
function NotFoundState({
  error,
  missing,
  back,
}: Required<Pick<ErrorStateProps, "missing" | "back">> & { error: ApiError }) {
  return (
    <div className={clsx(styles.state, styles.error)} role="alert" data-testid="not-found">
      <h1>{missing} not found</h1>
      <div className="muted">{error.detail ?? error.message}</div>
      <Link to={back.to}>{back.label}</Link>
    </div>
  );
}

/** Explain a failed request in words; an unreachable API gets the same words as the global banner. */
export function ErrorState({ error, onRetry, missing, back }: ErrorStateProps) {
  const unreachable = error instanceof ApiError && error.unreachable;
  const notFound = error instanceof ApiError && error.status === 404;
  if (notFound && missing)
    return (
      <NotFoundState
        error={error}
        missing={missing}
        back={back ?? { to: "/", label: "Back to the overview" }}
      />
    );
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
      {onRetry && !notFound ? (
        <Button size="small" onClick={onRetry}>
          Try again
        </Button>
      ) : null}
    </div>
  );
}
