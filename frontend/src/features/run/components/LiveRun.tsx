import { useEffect, useRef } from "react";
import { isActiveRun } from "@/api/types";
import { Banner } from "@/components/ui/Banner";
import { Button } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { StatusBadge } from "@/components/ui/VerdictBadge";
import { useSignedInUser } from "@/lib/session";
import { useCancelRun } from "@/features/run/api/cancelRun";
import styles from "@/features/run/components/LiveRun.module.css";
import type { LiveState } from "@/features/run/hooks/useRunEvents";

function eta(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return "";
  if (seconds < 60) return `about ${Math.round(seconds)} s left`;
  return `about ${Math.round(seconds / 60)} min left`;
}

/** A run in progress: progress bar, current scenario, streaming log, Cancel. */
export function LiveRun({ runId, live }: { runId: number; live: LiveState }) {
  const signedIn = Boolean(useSignedInUser());
  const cancel = useCancelRun();
  const pane = useRef<HTMLPreElement>(null);
  useEffect(() => {
    const el = pane.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [live.lines.length]);
  const status = live.status ?? "connecting";
  const percent = live.status === "completed" ? 100 : (live.progress?.percent ?? 0);
  const active = isActiveRun(live.status);
  const progress = live.progress;
  return (
    <Card
      as="section"
      className={styles.live}
      aria-label="Run progress"
      data-testid="live-run"
      data-status={status}
    >
      <div className={styles.head}>
        <StatusBadge status={status} />
        <span className="muted">
          {progress && active && progress.scenario
            ? `scenario ${progress.done + 1} of ${progress.total}: ${progress.scenario}`
            : (live.message ?? "")}
        </span>
        <span className="muted small">{active ? eta(progress?.eta_s) : ""}</span>
        {active && signedIn ? (
          <Button
            variant="danger"
            size="small"
            className={styles.cancel}
            disabled={cancel.isPending}
            onClick={() => cancel.mutate(runId)}
          >
            {cancel.isPending ? "Cancelling…" : "Cancel"}
          </Button>
        ) : null}
      </div>
      <div
        className={styles.progress}
        role="progressbar"
        aria-label="Progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(percent)}
      >
        <div className={styles.fill} style={{ width: `${percent}%` }} />
        <span className={styles.label}>{Math.round(percent)} %</span>
      </div>
      {cancel.isError ? (
        <Banner tone="error">{cancel.error instanceof Error ? cancel.error.message : "Cancel failed"}</Banner>
      ) : null}
      <pre ref={pane} className={styles.log} aria-label="Log" aria-live="off">
        {live.lines.length ? live.lines.join("\n") : "waiting for the runner…"}
      </pre>
    </Card>
  );
}
