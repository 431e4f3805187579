import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/** A run's profiles (one per benchmark variant and kind), without their stacks. */
export const getRunProfiles = (runId: number) =>
  unwrap(api.GET("/api/v1/runs/{run_id}/profiles", { params: { path: { run_id: runId } } }));

export const runProfilesQueryOptions = (runId: number) =>
  queryOptions({ queryKey: ["runs", runId, "profiles"], queryFn: () => getRunProfiles(runId) });

export const useRunProfiles = (runId: number) => useQuery(runProfilesQueryOptions(runId));

type Kind = "instructions" | "cpu";

/** The differential profile of one benchmark (and kind) between two runs. */
export const getRunsProfileDiff = (baseRun: number, headRun: number, benchmarkId: number, kind: Kind) =>
  unwrap(
    api.GET("/api/v1/profiles/diff", {
      params: { query: { base_run: baseRun, head_run: headRun, benchmark_id: benchmarkId, kind } },
    }),
  );

export const runsProfileDiffQueryOptions = (
  baseRun: number,
  headRun: number,
  benchmarkId: number,
  kind: Kind,
) =>
  queryOptions({
    queryKey: ["profiles", "diff", "runs", baseRun, headRun, benchmarkId, kind],
    queryFn: () => getRunsProfileDiff(baseRun, headRun, benchmarkId, kind),
    staleTime: Infinity,
  });

export const useRunsProfileDiff = (
  baseRun: number,
  headRun: number,
  choice: { benchmarkId: number; kind: string } | null,
) =>
  useQuery({
    ...runsProfileDiffQueryOptions(
      baseRun,
      headRun,
      choice?.benchmarkId ?? 0,
      (choice?.kind ?? "cpu") as Kind,
    ),
    enabled: choice !== null,
  });
