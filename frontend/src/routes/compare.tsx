import { ComparePage } from "@/features/compare/components/ComparePage";
import { useCompareSearch } from "@/features/compare/hooks/useCompareSearch";

export function CompareRoute() {
  const [search, update] = useCompareSearch();
  return <ComparePage search={search} onSearch={update} />;
}
