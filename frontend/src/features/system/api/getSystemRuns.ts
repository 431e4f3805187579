import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/** Recent runs of a system on a branch: the profile filter's options and its run → profile map. */
export const getSystemRuns = (system: string, branch: string) =>
  unwrap(api.GET("/api/v1/runs", { params: { query: { system, branch, limit: 500 } } }));

export const systemRunsQueryOptions = (system: string, branch: string) =>
  queryOptions({
    queryKey: ["runs", "system", system, branch],
    queryFn: () => getSystemRuns(system, branch),
  });

export const useSystemRuns = (system: string, branch: string, enabled: boolean) =>
  useQuery({ ...systemRunsQueryOptions(system, branch), enabled });
