import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router";
import type { AlertStatus } from "@/api/types";

export const ALERT_TABS = ["active", "open", "acknowledged", "resolved"] as const;
export type AlertTab = (typeof ALERT_TABS)[number];

export interface AlertsSearch {
  tab: AlertTab;
  system: string | null;
}

/** The alert states a tab lists, in the order their sections appear. */
export const tabStatuses = (tab: AlertTab): AlertStatus[] =>
  tab === "active" ? ["open", "acknowledged"] : [tab];

export function useAlertsSearch(): [AlertsSearch, (patch: Partial<AlertsSearch>) => void] {
  const [sp, setSp] = useSearchParams();
  const search = useMemo((): AlertsSearch => {
    const tab = sp.get("status") as AlertTab | null;
    return { tab: tab && ALERT_TABS.includes(tab) ? tab : "active", system: sp.get("system") || null };
  }, [sp]);
  const update = useCallback(
    (patch: Partial<AlertsSearch>) =>
      setSp((prev) => {
        const next = new URLSearchParams(prev);
        if ("tab" in patch) {
          if (patch.tab && patch.tab !== "active") next.set("status", patch.tab);
          else next.delete("status");
        }
        if ("system" in patch) {
          if (patch.system) next.set("system", patch.system);
          else next.delete("system");
        }
        return next;
      }),
    [setSp],
  );
  return [search, update];
}
