import type { ReactNode } from "react";
import { ApiError } from "@/api/client";

export function Loading({ label = "Loading…" }: { label?: string }) {
  return (
    <div className="state state-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state state-empty">
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
    <div className="state state-error" role="alert">
      <strong>{title}</strong>
      <div className="muted">{detail}</div>
      {onRetry ? (
        <button type="button" className="btn btn-small" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}
