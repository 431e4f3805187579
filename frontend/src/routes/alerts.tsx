import { AlertsPage } from "@/features/alerts/components/AlertsPage";
import { useAlertsSearch } from "@/features/alerts/hooks/useAlertsSearch";

export function AlertsRoute() {
  const [search, update] = useAlertsSearch();
  return <AlertsPage search={search} onSearch={update} />;
}
