import { keepPreviousData, queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { api, unwrap } from "@/api/client";
import type { Schemas } from "@/api/types";

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

type SeriesPoint = Schemas["SeriesPoint"];

/** Element i of one of the answer's columns (all have one element a point). */
function at<T>(column: T[], i: number): T {
  const v = column[i];
  if (v === undefined) throw new Error(`the series' columns differ in length (index ${i})`);
  return v;
}

/** The answer's columns (one array a field, `t` in ms) as the point objects the charts read. */
export function pointsOf(c: Schemas["SeriesColumns"]): SeriesPoint[] {
  return c.run_id.map((run_id, i) => ({
    run_id,
    commit: at(c.commit, i),
    t: new Date(at(c.t, i)).toISOString(),
    value: at(c.value, i),
    min: at(c.min, i),
    max: at(c.max, i),
    stddev: at(c.stddev, i),
    n: at(c.n, i),
    level: at(c.level, i),
    stage: at(c.stage, i),
    baseline: at(c.baseline, i),
    change_pct: at(c.change_pct, i),
    p_value: at(c.p_value, i),
  }));
}

/** One series; asked for as columns (less than half the bytes of point objects), read as points. */
export const getSeries = async (k: SeriesKey) => {
  const body = await unwrap(
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
          form: "columns",
        },
      },
    }),
  );
  return { ...body, points: body.columns ? pointsOf(body.columns) : body.points };
};

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
