import type { Schemas } from "@/api/types";
import type { Tone } from "@/components/ui/Badge";

/** A card's one status, from its open alerts and its latest verdicts together. */
export type CardStatus = "regressed" | "warn" | "ok" | "no_runs";

export const CARD_STATUS: Record<CardStatus, { label: string; tone: Tone; rank: number }> = {
  regressed: { label: "Regressed", tone: "fail", rank: 0 },
  warn: { label: "Warn", tone: "warn", rank: 1 },
  ok: { label: "OK", tone: "success", rank: 2 },
  no_runs: { label: "No runs", tone: "muted", rank: 3 },
};

type Card = Pick<Schemas["SystemRead"], "latest_run" | "latest_counts" | "open_alerts">;

/** Regressed when an alert is open or the latest run failed, warn when it warned, else ok. */
export function cardStatus(system: Card): CardStatus {
  if (!system.latest_run && !system.open_alerts) return "no_runs";
  if (system.open_alerts > 0 || (system.latest_counts.fail ?? 0) > 0) return "regressed";
  if ((system.latest_counts.warn ?? 0) > 0) return "warn";
  return "ok";
}

/** The cards worst first, then by name. */
export function worstFirst<T extends Card & { name: string }>(systems: readonly T[]): T[] {
  const rank = (s: T) => CARD_STATUS[cardStatus(s)].rank;
  return [...systems].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}
