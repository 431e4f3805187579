import { keepPreviousData, queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { api, unwrap } from "@/api/client";

/** The chart never asks for more points than it can draw: the server downsamples (MinMaxLTTB). */
export const MAX_POINTS = 300;

export interface SeriesKey {
  system: string;
  benchmark: string;
  /** Only when several benchmarks share the name; a name-only key can be fetched before the system loads. */
  benchmarkId: number | null;
  metric: string;
  branch: string;
  testbed: string | null;
  from: string | null;
  to: string | null;
  /** Only runs of this profile (filtered on the server, before downsampling). */
  profile: string | null;
}

export const getSeries = (k: SeriesKey) =>
  unwrap(
    api.GET("/api/v1/series", {
      params: {
        query: {
          system: k.system,
          benchmark: k.benchmark,
          benchmark_id: k.benchmarkId,
          metric: k.metric,
          branch: k.branch,
          testbed: k.testbed,
          from: k.from,
          to: k.to,
          profile: k.profile,
          max_points: MAX_POINTS,
        },
      },
    }),
  );

export const seriesQueryOptions = (k: SeriesKey) =>
  queryOptions({ queryKey: ["series", k], queryFn: () => getSeries(k), placeholderData: keepPreviousData });

export const useSeries = (k: SeriesKey) => useQuery(seriesQueryOptions(k));

/** Start loading the chart a permalink points at while the system itself is still loading. */
export function usePrefetchSeries(k: SeriesKey | null) {
  const client = useQueryClient();
  const id = k ? JSON.stringify(k) : null;
  useEffect(() => {
    if (id) void client.prefetchQuery(seriesQueryOptions(JSON.parse(id) as SeriesKey));
  }, [client, id]);
}
