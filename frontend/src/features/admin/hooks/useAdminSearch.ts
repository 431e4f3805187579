import { useSearchParams } from "react-router";

export const ADMIN_TABS = ["tokens", "users", "thresholds", "manifest", "source", "retention"] as const;
export type AdminTab = (typeof ADMIN_TABS)[number];

export interface AdminSearch {
  tab: AdminTab;
  system: string | null;
}

const isTab = (v: string | null): v is AdminTab => (ADMIN_TABS as readonly string[]).includes(v ?? "");

/** The admin page's tab and system live in the URL (?tab=&system=). */
export function useAdminSearch(): [AdminSearch, (patch: Partial<AdminSearch>) => void] {
  const [params, setParams] = useSearchParams();
  const tab = params.get("tab");
  const search: AdminSearch = { tab: isTab(tab) ? tab : "tokens", system: params.get("system") };
  const update = (patch: Partial<AdminSearch>) => {
    const next = { ...search, ...patch };
    const out = new URLSearchParams({ tab: next.tab });
    if (next.system) out.set("system", next.system);
    setParams(out);
  };
  return [search, update];
}
