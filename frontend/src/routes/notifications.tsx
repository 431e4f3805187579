import { NotificationsPage } from "@/features/notifications/components/NotificationsPage";

export function NotificationsRoute() {
  return <NotificationsPage />;
}
