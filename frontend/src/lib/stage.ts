/**
 * The two stages of an alert in words: a point that crosses its floors is suspected; an alert
 * opens only once the step is confirmed (a change point, the next runs staying worse, or
 * re-runs of the same commit); a suspected point its re-runs did not confirm is dismissed.
 */
import type { Stage } from "@/api/types";
import { formatNumber } from "@/lib/format";

export type { Stage };

export interface StageInfo {
  label: string;
  description: string;
}

export const STAGES: Record<Stage, StageInfo> = {
  suspected: {
    label: "Suspected",
    description: "crossed its floor; an alert opens only once the step is confirmed",
  },
  confirmed: {
    label: "Confirmed",
    description: "the first bad run of a confirmed step: an alert names it",
  },
  dismissed: {
    label: "Dismissed",
    description: "its re-runs did not confirm the change: treated as noise",
  },
};

/** The point's stage (the API's `Stage`); null when the point was not staged. */
export function toStage(stage: Stage | null | undefined): Stage | null {
  return stage ?? null;
}

const CONFIRMED_BY: Record<string, string> = {
  "change-point": "a significant change point",
  persistence: "the next runs staying worse",
  window: "the runs since shifted together (a windowed rank test)",
  "re-runs": "re-runs of the same commit",
  drift: "a drift of the level over a long window",
};

/** How a step was confirmed, as the end of "confirmed by …". */
export function confirmedByWords(by: string | null | undefined): string {
  if (!by) return "a fail verdict (before two-stage alerts)";
  return CONFIRMED_BY[by] ?? by;
}

export interface FloorFields {
  floor_warn?: number | null;
  floor_fail?: number | null;
  variation?: number | null;
  warn_threshold: number;
  fail_threshold: number;
}

const pct = (v: number) => `${formatNumber(v, 3)} %`;

/** "floor 5 % · noise 0.8 %": the effective warn floor and the series' run-to-run variation; null without floors. */
export function floorsText(v: FloorFields): string | null {
  if (v.floor_warn === null || v.floor_warn === undefined) return null;
  const noise =
    v.variation === null || v.variation === undefined
      ? "noise not measured yet"
      : `noise ${formatNumber(v.variation, 2)} %`;
  return `floor ${pct(v.floor_warn)} · ${noise}`;
}

/** The longer form, for a tooltip: both floors, the configured thresholds and which one won. */
export function floorsTitle(v: FloorFields): string {
  if (v.floor_warn === null || v.floor_warn === undefined) return "";
  const fail = v.floor_fail ?? v.fail_threshold;
  const raised = v.floor_warn > v.warn_threshold;
  return (
    `Warn floor ${pct(v.floor_warn)}, fail floor ${pct(fail)}: ` +
    (raised
      ? `raised above the configured ${pct(v.warn_threshold)} / ${pct(v.fail_threshold)} by this series' noise.`
      : `the configured thresholds (this series' noise is smaller).`)
  );
}
