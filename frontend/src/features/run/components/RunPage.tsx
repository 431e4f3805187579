import { useEffect, useState } from "react";
import { useLocation } from "react-router";
import { isActiveRun } from "@/api/types";
import { Banner } from "@/components/ui/Banner";
import { Page } from "@/components/ui/Page";
import { ErrorState, Loading } from "@/components/ui/States";
import { useSignedInUser } from "@/lib/session";
import { useRun } from "@/features/run/api/getRun";
import { AcceptChangeDialog } from "@/features/run/components/AcceptChangeDialog";
import { EnvironmentChange } from "@/features/run/components/EnvironmentChange";
import { LiveRun } from "@/features/run/components/LiveRun";
import { MeasurementTable } from "@/features/run/components/MeasurementTable";
import { ProfilesPanel } from "@/features/run/components/ProfilesPanel";
import { RerunOf, RerunsPanel } from "@/features/run/components/RerunsPanel";
import { RunAlerts } from "@/features/run/components/RunAlerts";
import { RunHeader } from "@/features/run/components/RunHeader";
import type { Measurement, MeasurementView } from "@/features/run/hooks/measurementView";
import { useRunEvents } from "@/features/run/hooks/useRunEvents";

interface RunPageProps {
  runId: number;
  view: MeasurementView;
  onView: (patch: Partial<MeasurementView>) => void;
}

/** One run: its header, live progress while it runs, its re-runs, then every measurement with its verdict. */
export function RunPage({ runId, view, onView }: RunPageProps) {
  const run = useRun(runId);
  const signedIn = Boolean(useSignedInUser());
  const [accepting, setAccepting] = useState<Measurement | null>(null);
  const [accepted, setAccepted] = useState<Readonly<Record<number, string>>>({});
  const status = run.data?.status;
  // Queued and triggered runs stream their progress; the finished run is then reloaded.
  const follow = Boolean(status && (isActiveRun(status) || run.data?.ref));
  const live = useRunEvents(runId, follow);
  // Set by the "Run benchmarks" dialog when the API said no agent of the system is online.
  const warning = (useLocation().state as { warning?: string | null } | null)?.warning;
  const { refetch } = run;
  // Each state change (and the end of the stream) reloads the header and, at the end, the results.
  useEffect(() => {
    if (live.status) void refetch();
  }, [live.status, live.ended, refetch]);
  if (run.isPending) return <Loading label="Loading run…" />;
  if (run.isError)
    return (
      <ErrorState
        error={run.error}
        onRetry={() => void run.refetch()}
        missing={`Run #${runId}`}
        back={{ to: "/runs", label: "Back to the runs" }}
      />
    );
  const data = run.data;
  return (
    <Page>
      <RunHeader run={data} />
      {warning && data.status === "queued" ? (
        <Banner tone="warn" testId="no-agent">
          {warning}
        </Banner>
      ) : null}
      <EnvironmentChange change={data.environment_change} testbed={data.testbed} signedIn={signedIn} />
      {data.rerun_of ? <RerunOf runId={data.rerun_of} /> : null}
      {follow ? <LiveRun runId={runId} live={live} /> : null}
      <RerunsPanel reruns={data.reruns ?? []} />
      <RunAlerts alerts={data.alerts ?? []} />
      {data.measurements.length > 0 || !follow ? (
        <MeasurementTable
          rows={data.measurements}
          view={view}
          onView={onView}
          // Re-runs are not part of any series: there is no step of theirs to accept.
          onAccept={signedIn && !data.rerun_of ? setAccepting : undefined}
          accepted={accepted}
        />
      ) : null}
      {isActiveRun(data.status) ? null : <ProfilesPanel runId={runId} />}
      <AcceptChangeDialog
        key={accepting?.measurement_id ?? "closed"}
        run={data}
        measurement={accepting}
        onClose={() => setAccepting(null)}
        onAccepted={(id, change) => setAccepted((now) => ({ ...now, [id]: change.note }))}
      />
    </Page>
  );
}
