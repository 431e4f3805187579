import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/** The run's profiles (one per benchmark variant and kind), without their stacks. */
export const getRunProfiles = (runId: number) =>
  unwrap(api.GET("/api/v1/runs/{run_id}/profiles", { params: { path: { run_id: runId } } }));

export const runProfilesQueryOptions = (runId: number) =>
  queryOptions({ queryKey: ["runs", runId, "profiles"], queryFn: () => getRunProfiles(runId) });

export const useRunProfiles = (runId: number) => useQuery(runProfilesQueryOptions(runId));

/** One profile: its call tree (root "all") and its top functions by self cost. */
export const getProfile = (profileId: number) =>
  unwrap(api.GET("/api/v1/profiles/{profile_id}", { params: { path: { profile_id: profileId } } }));

// A stored profile never changes: no refetching it.
export const profileQueryOptions = (profileId: number) =>
  queryOptions({
    queryKey: ["profiles", profileId],
    queryFn: () => getProfile(profileId),
    staleTime: Infinity,
  });

export const useProfile = (profileId: number) => useQuery(profileQueryOptions(profileId));
