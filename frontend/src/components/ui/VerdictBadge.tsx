import { ALERT_STATUSES, RUN_STATES, type AlertStatus, type Level, type RunStatus } from "@/api/types";
import { MarkerIcon } from "@/components/charts/Marker";
import { Badge, type Tone } from "@/components/ui/Badge";
import { STAGES, toStage, type Stage } from "@/lib/stage";
import { LEVELS, toLevel } from "@/lib/verdict";

/** A verdict as shape + word + colour. */
export function VerdictBadge({ level }: { level: Level | null | undefined }) {
  const l = toLevel(level);
  const info = LEVELS[l];
  return (
    <Badge tone={l} title={info.description} level={l}>
      <MarkerIcon shape={info.shape} color={info.color} size={11} />
      {info.label}
    </Badge>
  );
}

const STAGE_TONE: Record<Stage, Tone> = { suspected: "info", confirmed: "fail", dismissed: "muted" };

/** A point's stage in words (suspected, confirmed, dismissed); nothing for a point that was not staged. */
export function StageBadge({ stage }: { stage: Stage | null | undefined }) {
  const s = toStage(stage);
  if (!s) return null;
  return (
    <Badge tone={STAGE_TONE[s]} shape="tag" title={STAGES[s].description} stage={s}>
      {STAGES[s].label}
    </Badge>
  );
}

const STATUS_TONE: Record<RunStatus | AlertStatus, Tone> = {
  completed: "success",
  failed: "fail",
  timed_out: "fail",
  cancelled: "muted",
  queued: "info",
  building: "info",
  running: "info",
  uploading: "info",
  // An alert's state is neutral: its red or amber is its level's (src/lib/status.ts).
  open: "info",
  acknowledged: "muted",
  resolved: "success",
};
const KNOWN: readonly string[] = [...RUN_STATES, ...ALERT_STATUSES];

/** The tone of a run or alert state (unknown states read as muted). */
export const statusTone = (status: string): Tone =>
  KNOWN.includes(status) ? STATUS_TONE[status as RunStatus | AlertStatus] : "muted";

/** A run or alert status in words. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge tone={statusTone(status)} shape="tag">
      {status.replace("_", " ")}
    </Badge>
  );
}
