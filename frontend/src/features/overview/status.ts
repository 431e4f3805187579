import type { Schemas } from "@/api/types";
import { HEALTH, systemHealth, type Health } from "@/lib/status";

type Card = Pick<Schemas["SystemRead"], "latest_run" | "latest_counts" | "open_alerts"> & {
  headline?: Schemas["SystemRead"]["headline"];
};

/** A card's one status (src/lib/status.ts): its latest verdicts, open alerts and headline together. */
export function cardStatus(system: Card, alertLevel?: string | null): Health {
  return systemHealth({
    counts: system.latest_counts,
    openAlerts: system.open_alerts,
    alertLevel,
    hasRuns: Boolean(system.latest_run),
    headlineLevel: system.headline ? system.headline.latest_level : undefined,
  });
}

/** The worst open-alert level of each system, from an alert list (fail before warn). */
export function alertLevelsBySystem(alerts: readonly { system: string; level: string }[]) {
  const out = new Map<string, string>();
  for (const a of alerts) if (out.get(a.system) !== "fail") out.set(a.system, a.level);
  return out;
}

/** The cards worst first, then by name. */
export function worstFirst<T extends Card & { name: string; slug?: string }>(
  systems: readonly T[],
  alertLevels: ReadonlyMap<string, string> = new Map(),
): T[] {
  const rank = (s: T) => HEALTH[cardStatus(s, alertLevels.get(s.slug ?? ""))].rank;
  return [...systems].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}
