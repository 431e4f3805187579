import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { RunStatus } from "@/api/types";

export interface RunsFilter {
  status: RunStatus | null;
  system: string | null;
  branch: string | null;
  offset: number;
}

export const PAGE = 50;

export const getRuns = (f: RunsFilter) =>
  unwrap(
    api.GET("/api/v1/runs", {
      params: {
        query: {
          status: f.status ?? undefined,
          system: f.system ?? undefined,
          branch: f.branch ?? undefined,
          limit: PAGE,
          offset: f.offset,
        },
      },
    }),
  );

export const runsQueryOptions = (f: RunsFilter) =>
  queryOptions({
    queryKey: ["runs", "list", f],
    queryFn: () => getRuns(f),
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
  });

export const useRuns = (f: RunsFilter) => useQuery(runsQueryOptions(f));
