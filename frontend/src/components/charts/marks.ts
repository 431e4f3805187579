/**
 * Pure placement of a series' vertical marks: each confirmed step at its first bad run, each
 * accepted distribution change at the run where the baseline restarts.
 */
import type { Level } from "@/api/types";
import { formatChange } from "@/lib/format";
import { confirmedByWords } from "@/lib/stage";
import { color, type ColorToken } from "@/lib/tokens";
import { LEVELS, toLevel } from "@/lib/verdict";

/** A confirmed step (the API's SeriesStep). */
export interface StepInput {
  alert_id: number;
  run_id: number;
  level: Level;
  status: string;
  change_pct: number | null;
  confirmed_by: string | null;
  commit: string | null;
  /** The first bad commit a bisection of the alert found. */
  first_bad_commit?: { sha: string; subject: string; author: string } | null;
}

/** An accepted distribution change (the API's ChangeRead). */
export interface ChangeInput {
  id: number;
  run_id: number;
  note: string;
  created_by: string;
}

/** An environment change on the series' testbed (the API's EnvironmentChange). */
export interface EnvironmentInput {
  run_id: number;
  previous_run_id: number;
  text: string;
}

export interface Mark {
  key: string;
  kind: "step" | "change" | "environment";
  runId: number;
  /** The x (ms since the epoch) of the run's point. */
  x: number;
  /** The short label drawn beside the line. */
  label: string;
  /** The full sentence (SVG <title>). */
  title: string;
  color: ColorToken;
  dashed: boolean;
  /** A resolved step is drawn muted. */
  muted: boolean;
  /** A step's first bad commit (short sha), once a bisection found it. */
  culprit?: string;
  level: Level | null;
  status: string | null;
  /** Labels in the right half of the chart go to the left of their line. */
  anchor: "start" | "end";
  /** 0: top line of labels (steps); 1: the one below (changes); 2: environment changes. */
  row: 0 | 1 | 2;
}

const LABEL_CHARS = 28;

/** Shorten a note to fit beside its line ("expected: new alloc…"). */
export function clip(text: string, max = LABEL_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** " First bad commit 4025eefd74aa “Inline the hash” by Ann (bisected)." or nothing. */
export function culpritWords(c: StepInput["first_bad_commit"]): string {
  if (!c) return "";
  const subject = c.subject ? ` “${c.subject}”` : "";
  const by = c.author ? ` by ${c.author}` : "";
  return ` First bad commit ${c.sha.slice(0, 12)}${subject}${by} (bisected).`;
}

/** Marks for the steps and changes whose run is among the drawn points (others lie outside the view). */
export function placeMarks(
  data: readonly { run_id: number; x: number }[],
  steps: readonly StepInput[] = [],
  changes: readonly ChangeInput[] = [],
  direction = "lower_is_better",
  environment: readonly EnvironmentInput[] = [],
): Mark[] {
  const index = new Map(data.map((d, i) => [d.run_id, i]));
  const at = (runId: number) => {
    const i = index.get(runId);
    return i === undefined ? null : { x: data[i]!.x, anchor: i > data.length / 2 ? "end" : "start" };
  };
  const marks: Mark[] = [];
  for (const s of steps) {
    const where = at(s.run_id);
    if (!where) continue;
    const level = toLevel(s.level);
    const resolved = s.status === "resolved";
    const size = formatChange(s.change_pct, direction);
    marks.push({
      key: `step-${s.alert_id}`,
      kind: "step",
      runId: s.run_id,
      x: where.x,
      anchor: where.anchor as Mark["anchor"],
      row: 0,
      label: `${LEVELS[level].label} step ${size}${resolved ? " (resolved)" : ""}`,
      title:
        `${LEVELS[level].label} step of ${size} from run #${s.run_id}` +
        `${s.commit ? ` (${s.commit.slice(0, 10)})` : ""}, confirmed by ${confirmedByWords(s.confirmed_by)}; ` +
        `alert ${s.status}.${culpritWords(s.first_bad_commit)}`,
      culprit: s.first_bad_commit?.sha.slice(0, 12),
      color: resolved ? color.muted : LEVELS[level].color,
      dashed: false,
      muted: resolved,
      level,
      status: s.status,
    });
  }
  for (const c of changes) {
    const where = at(c.run_id);
    if (!where) continue;
    marks.push({
      key: `change-${c.id}`,
      kind: "change",
      runId: c.run_id,
      x: where.x,
      anchor: where.anchor as Mark["anchor"],
      row: 1,
      label: clip(c.note),
      title: `Accepted change at run #${c.run_id}: “${c.note}” (by ${c.created_by}); the baseline restarts here.`,
      color: color.textSoft,
      dashed: true,
      muted: false,
      level: null,
      status: null,
    });
  }
  for (const e of environment) {
    const where = at(e.run_id);
    if (!where) continue;
    marks.push({
      key: `env-${e.run_id}`,
      kind: "environment",
      runId: e.run_id,
      x: where.x,
      anchor: where.anchor as Mark["anchor"],
      row: 2,
      label: clip(e.text),
      title: `Environment changed at run #${e.run_id} (since run #${e.previous_run_id}): ${e.text}. The baseline continues unless the step is accepted as an expected change.`,
      color: color.muted,
      dashed: true,
      muted: true,
      level: null,
      status: null,
    });
  }
  return marks;
}
