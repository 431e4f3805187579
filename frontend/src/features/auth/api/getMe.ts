import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/** Who is signed in: the API answers 200 with the user, or 200 with null when nobody is. */
export const getMe = () => unwrap(api.GET("/api/v1/auth/me"));

export const meQueryOptions = () =>
  queryOptions({ queryKey: ["auth", "me"], queryFn: getMe, staleTime: 60_000 });

export const useMe = () => useQuery(meQueryOptions());
