import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { isActiveRun } from "@/api/types";

export const getRun = (runId: number) =>
  unwrap(api.GET("/api/v1/runs/{run_id}", { params: { path: { run_id: runId } } }));

export const runQueryOptions = (runId: number) =>
  queryOptions({ queryKey: ["runs", runId], queryFn: () => getRun(runId) });

/** How often to reload a run while one of its re-runs is still queued or running (their states show on it). */
export const RERUN_POLL_MS = 5_000;

export const useRun = (runId: number) =>
  useQuery({
    ...runQueryOptions(runId),
    refetchInterval: (query) =>
      query.state.data?.reruns?.some((r) => isActiveRun(r.status)) ? RERUN_POLL_MS : false,
  });
