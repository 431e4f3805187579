import { useParams } from "react-router";
import { SystemPage } from "@/features/system/components/SystemPage";
import { useSystemSearch } from "@/features/system/hooks/useSystemSearch";

export function SystemRoute() {
  const { slug = "" } = useParams();
  const [search, update] = useSystemSearch();
  return <SystemPage key={slug} slug={slug} search={search} onSearch={update} />;
}
