import { RunsPage } from "@/features/runs/components/RunsPage";
import { useRunsSearch } from "@/features/runs/hooks/useRunsSearch";

export function RunsRoute() {
  const [filter, update] = useRunsSearch();
  return <RunsPage filter={filter} onFilter={update} />;
}
