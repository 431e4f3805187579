import { OverviewPage } from "@/features/overview/components/OverviewPage";

export function OverviewRoute() {
  return <OverviewPage />;
}
