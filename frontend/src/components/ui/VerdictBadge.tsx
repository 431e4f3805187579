import { MarkerIcon } from "@/components/charts/Marker";
import { LEVELS, toLevel } from "@/lib/verdict";

/** A verdict as shape + word + colour. */
export function VerdictBadge({ level }: { level: string | null | undefined }) {
  const l = toLevel(level);
  const info = LEVELS[l];
  return (
    <span className={`badge badge-${l}`} title={info.description} data-level={l}>
      <MarkerIcon shape={info.shape} color={info.color} size={11} />
      {info.label}
    </span>
  );
}

const STATUS_CLASS: Record<string, string> = {
  completed: "ok",
  failed: "fail",
  timed_out: "fail",
  cancelled: "muted",
  queued: "info",
  building: "info",
  running: "info",
  uploading: "info",
  open: "fail",
  acknowledged: "warn",
  resolved: "ok",
};

/** A run or alert status in words. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`status status-${STATUS_CLASS[status] ?? "muted"}`}>{status.replace("_", " ")}</span>
  );
}
