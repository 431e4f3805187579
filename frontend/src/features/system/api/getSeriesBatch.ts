import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/** Points per chart of the page (the server keeps each bucket's extremes and every warn/fail point). */
export const BATCH_POINTS = 200;
/** The most series one page asks for (the API's own bound is 1,000). */
export const BATCH_LIMIT = 1000;

export interface BatchKey {
  system: string;
  branch: string;
  /** Null with a null profile: the server picks the view with the newest run. */
  testbed: string | null;
  profile: string | null;
  from: string | null;
  to: string | null;
}

/** Every series of the page in one request (GET /api/v1/series/batch). */
export const getSeriesBatch = (k: BatchKey) =>
  unwrap(
    api.GET("/api/v1/series/batch", {
      params: {
        query: {
          system: k.system,
          branch: k.branch,
          testbed: k.testbed,
          profile: k.profile,
          from: k.from,
          to: k.to,
          max_points: BATCH_POINTS,
          limit: BATCH_LIMIT,
        },
      },
    }),
  );

export const seriesBatchQueryOptions = (k: BatchKey) =>
  queryOptions({
    queryKey: ["series", "batch", k],
    queryFn: () => getSeriesBatch(k),
    placeholderData: keepPreviousData,
  });

export const useSeriesBatch = (k: BatchKey, enabled = true) =>
  useQuery({ ...seriesBatchQueryOptions(k), enabled });
