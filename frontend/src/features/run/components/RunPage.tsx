import { useEffect } from "react";
import { isActiveRun } from "@/api/types";
import { Page } from "@/components/ui/Page";
import { ErrorState, Loading } from "@/components/ui/States";
import { useRun } from "@/features/run/api/getRun";
import { LiveRun } from "@/features/run/components/LiveRun";
import { MeasurementTable } from "@/features/run/components/MeasurementTable";
import { RunHeader } from "@/features/run/components/RunHeader";
import type { MeasurementView } from "@/features/run/hooks/measurementView";
import { useRunEvents } from "@/features/run/hooks/useRunEvents";

interface RunPageProps {
  runId: number;
  view: MeasurementView;
  onView: (patch: Partial<MeasurementView>) => void;
}

/** One run: its header, live progress while it runs, then every measurement with its verdict. */
export function RunPage({ runId, view, onView }: RunPageProps) {
  const run = useRun(runId);
  const status = run.data?.status;
  // Queued and triggered runs stream their progress; the finished run is then reloaded.
  const follow = Boolean(status && (isActiveRun(status) || run.data?.ref));
  const live = useRunEvents(runId, follow);
  const { refetch } = run;
  // Each state change (and the end of the stream) reloads the header and, at the end, the results.
  useEffect(() => {
    if (live.status) void refetch();
  }, [live.status, live.ended, refetch]);
  if (run.isPending) return <Loading label="Loading run…" />;
  if (run.isError) return <ErrorState error={run.error} onRetry={() => void run.refetch()} />;
  return (
    <Page>
      <RunHeader run={run.data} />
      {follow ? <LiveRun runId={runId} live={live} /> : null}
      {run.data.measurements.length > 0 || !follow ? (
        <MeasurementTable rows={run.data.measurements} view={view} onView={onView} />
      ) : null}
    </Page>
  );
}
