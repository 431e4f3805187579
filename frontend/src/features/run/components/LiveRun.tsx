import { useEffect, useRef } from "react";
import { useMe } from "@/lib/auth";
import { useCancelRun } from "@/features/run/api/cancelRun";
import type { LiveState } from "@/features/run/hooks/useRunEvents";

const ACTIVE = new Set(["queued", "building", "running", "uploading"]);

function eta(seconds: number | null): string {
  if (seconds === null) return "";
  if (seconds < 60) return `about ${Math.round(seconds)} s left`;
  return `about ${Math.round(seconds / 60)} min left`;
}

/** A run in progress: progress bar, current scenario, streaming log, Cancel. */
export function LiveRun({ runId, live }: { runId: number; live: LiveState }) {
  const me = useMe();
  const cancel = useCancelRun();
  const pane = useRef<HTMLPreElement>(null);
  useEffect(() => {
    const el = pane.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [live.lines.length]);
  const status = live.status ?? "connecting";
  const percent = live.status === "completed" ? 100 : (live.progress?.percent ?? 0);
  const active = ACTIVE.has(status);
  return (
    <section className="card live-run" aria-label="Run progress">
      <div className="live-head">
        <strong className={`status status-${active ? "info" : status === "completed" ? "ok" : "fail"}`}>
          {status}
        </strong>
        <span className="muted">
          {live.progress && active && live.progress.scenario
            ? `scenario ${live.progress.done + 1} of ${live.progress.total}: ${live.progress.scenario}`
            : (live.message ?? "")}
        </span>
        <span className="muted small">{active ? eta(live.progress?.eta_s ?? null) : ""}</span>
        {active && me.data ? (
          <button
            type="button"
            className="btn btn-small btn-danger"
            disabled={cancel.isPending}
            onClick={() => cancel.mutate(runId)}
          >
            {cancel.isPending ? "Cancelling…" : "Cancel"}
          </button>
        ) : null}
      </div>
      <div
        className="progress"
        role="progressbar"
        aria-label="Progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(percent)}
      >
        <div className="progress-fill" style={{ width: `${percent}%` }} />
        <span className="progress-label">{Math.round(percent)} %</span>
      </div>
      {cancel.isError ? (
        <div className="banner banner-error" role="alert">
          {cancel.error instanceof Error ? cancel.error.message : "Cancel failed"}
        </div>
      ) : null}
      <pre ref={pane} className="log-pane" aria-label="Log" aria-live="off">
        {live.lines.length ? live.lines.join("\n") : "waiting for the runner…"}
      </pre>
    </section>
  );
}
