import { useParams } from "react-router";
import { Empty } from "@/components/ui/States";
import { RunPage } from "@/features/run/components/RunPage";
import { useRunSearch } from "@/features/run/hooks/useRunSearch";

export function RunRoute() {
  const { runId } = useParams();
  const [view, update] = useRunSearch();
  const id = Number(runId);
  if (!Number.isInteger(id) || id <= 0) return <Empty title="That is not a run id" />;
  return <RunPage runId={id} view={view} onView={update} />;
}
