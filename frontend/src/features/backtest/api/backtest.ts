import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { Schemas } from "@/api/types";

export type BacktestRequest = Schemas["BacktestRequest"];

/** Replay stored series under other thresholds (read only on the server: nothing changes). */
export const runBacktest = (body: BacktestRequest) => unwrap(api.POST("/api/v1/backtest", { body }));

export const useBacktest = () => useMutation({ mutationFn: runBacktest });

/** The system: its benchmarks and metrics (the picker), branches, testbeds and thresholds. */
export const getSystem = (slug: string) =>
  unwrap(api.GET("/api/v1/systems/{slug}", { params: { path: { slug } } }));

export const useSystem = (slug: string) =>
  useQuery(queryOptions({ queryKey: ["systems", slug], queryFn: () => getSystem(slug) }));

export interface ChartKey {
  system: string;
  benchmark: string;
  benchmarkId: number;
  metric: string;
  branch: string;
  testbed: string;
  /** The first replayed run's start: the chart shows what was replayed. */
  from: string;
  maxPoints: number;
}

/** One replayed series' points for its chart (every replayed run, up to maxPoints). */
export const getSeries = (k: ChartKey) =>
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
          max_points: k.maxPoints,
        },
      },
    }),
  );

export const useSeries = (k: ChartKey | null) =>
  useQuery({
    queryKey: ["series", "backtest", k],
    queryFn: () => getSeries(k!),
    enabled: k !== null,
  });
