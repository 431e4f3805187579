import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export const getRun = (runId: number) =>
  unwrap(api.GET("/api/v1/runs/{run_id}", { params: { path: { run_id: runId } } }));

export const runQueryOptions = (runId: number) =>
  queryOptions({ queryKey: ["runs", runId], queryFn: () => getRun(runId) });

export const useRun = (runId: number) => useQuery(runQueryOptions(runId));
