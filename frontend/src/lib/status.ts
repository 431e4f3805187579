/**
 * One status model for a system, a branch, an alert or a headline: its word and tone come from
 * here only, so the overview cards, the system and run pages, the alerts and the README badge
 * (backend alerts/queries.py `badge_status`, the same words) never disagree. Learning is "not
 * judged yet", never OK; a warn-level regression reads and looks different from a fail-level one.
 */
import type { Tone } from "@/components/ui/Badge";
import type { Level } from "@/lib/verdict";

export type Health = "regressed" | "worse" | "alerted" | "not_judged" | "ok" | "no_runs";

export interface HealthInfo {
  label: string;
  description: string;
  tone: Tone;
  /** Sort rank: the worst first. */
  rank: number;
}

export const HEALTH: Record<Health, HealthInfo> = {
  regressed: { label: "Regressed", description: "worse beyond the fail threshold", tone: "fail", rank: 0 },
  worse: {
    label: "Worse (warn)",
    description: "worse beyond the warn threshold, short of the fail one",
    tone: "warn",
    rank: 1,
  },
  alerted: {
    label: "Alert open",
    description: "an alert on an earlier run is still open; the latest run has no regression",
    tone: "warn",
    rank: 2,
  },
  not_judged: {
    label: "Not judged yet",
    description: "too few runs yet to measure the noise: nothing was judged",
    tone: "learning",
    rank: 3,
  },
  ok: { label: "OK", description: "judged, and within the thresholds", tone: "success", rank: 4 },
  no_runs: { label: "No runs", description: "nothing measured yet", tone: "muted", rank: 5 },
};

/** The worst level among alerts (fail before warn), or null for none. */
export function worstAlertLevel(alerts: readonly { level: string }[]): string | null {
  if (alerts.some((a) => a.level === "fail")) return "fail";
  return alerts.length ? "warn" : null;
}

/** Levels that carry no judgement (too few runs, or nothing earlier to compare with). */
const UNJUDGED: ReadonlySet<string> = new Set(["learning", "no_baseline"]);
const JUDGED_LEVELS = ["fail", "warn", "unstable", "noisy", "improved", "ok"] as const;

/** One measurement's or alert's level as a health: fail regressed, warn worse, learning not judged. */
export function levelHealth(level: Level | string | null | undefined): Health {
  if (level === "fail") return "regressed";
  if (level === "warn") return "worse";
  if (level === null || level === undefined || UNJUDGED.has(level)) return "not_judged";
  return "ok";
}

export interface HealthInput {
  /** The latest run's verdicts counted by level. */
  counts: Record<string, number | undefined>;
  openAlerts: number;
  /** The worst level of the open alerts, when known (an alert list was read). */
  alertLevel?: string | null;
  hasRuns: boolean;
  /** The level of the headline series' latest point, when the page shows one. */
  headlineLevel?: Level | null;
}

/** A system's one status from its latest verdicts, its open alerts and its headline together. */
export function systemHealth(input: HealthInput): Health {
  const { counts, openAlerts, alertLevel, hasRuns, headlineLevel } = input;
  if (!hasRuns && !openAlerts) return "no_runs";
  if ((counts.fail ?? 0) > 0 || (openAlerts > 0 && alertLevel === "fail")) return "regressed";
  if ((counts.warn ?? 0) > 0 || (openAlerts > 0 && alertLevel === "warn")) return "worse";
  if (openAlerts > 0) return "alerted";
  const judged = JUDGED_LEVELS.reduce((n, l) => n + (counts[l] ?? 0), 0);
  // A headline still learning must not sit under an OK: the card's status agrees with it.
  if (!judged || (headlineLevel !== undefined && levelHealth(headlineLevel) === "not_judged"))
    return "not_judged";
  return "ok";
}
