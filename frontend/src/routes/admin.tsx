import { AdminPage } from "@/features/admin/components/AdminPage";
import { useAdminSearch } from "@/features/admin/hooks/useAdminSearch";

export function AdminRoute() {
  const [search, update] = useAdminSearch();
  return <AdminPage search={search} onSearch={update} />;
}
