import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/** The differential profile of two stored profiles (an alert's last good and first bad run). */
export const getProfileDiff = (base: number, head: number) =>
  unwrap(api.GET("/api/v1/profiles/diff", { params: { query: { base, head } } }));

// Stored profiles never change, so neither does their difference.
export const profileDiffQueryOptions = (base: number, head: number) =>
  queryOptions({
    queryKey: ["profiles", "diff", base, head],
    queryFn: () => getProfileDiff(base, head),
    staleTime: Infinity,
  });

export const useProfileDiff = (base: number, head: number, enabled: boolean) =>
  useQuery({ ...profileDiffQueryOptions(base, head), enabled });
