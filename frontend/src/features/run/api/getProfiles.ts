import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { ApiError } from "@/api/errors";
import type { Schemas } from "@/api/types";

/** The run's profiles (one per benchmark variant and kind), without their stacks. */
export const getRunProfiles = (runId: number) =>
  unwrap(api.GET("/api/v1/runs/{run_id}/profiles", { params: { path: { run_id: runId } } }));

export const runProfilesQueryOptions = (runId: number) =>
  queryOptions({ queryKey: ["runs", runId, "profiles"], queryFn: () => getRunProfiles(runId) });

export const useRunProfiles = (runId: number) => useQuery(runProfilesQueryOptions(runId));

/** One profile: its call tree (root "all") and its top functions by self cost (JSON, not the folded text). */
export async function getProfile(profileId: number): Promise<Schemas["ProfileDetail"]> {
  const profile = await unwrap(
    api.GET("/api/v1/profiles/{profile_id}", {
      params: { path: { profile_id: profileId }, query: { format: "json" } },
    }),
  );
  if (typeof profile === "string")
    throw new ApiError(200, "The API sent the folded text, not the profile's tree");
  return profile;
}

// A stored profile never changes: no refetching it.
export const profileQueryOptions = (profileId: number) =>
  queryOptions({
    queryKey: ["profiles", profileId],
    queryFn: () => getProfile(profileId),
    staleTime: Infinity,
  });

export const useProfile = (profileId: number) => useQuery(profileQueryOptions(profileId));
