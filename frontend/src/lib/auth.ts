import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, api, unwrap, type Schemas } from "@/api/client";

/** Shared across features: who is signed in (null when nobody is). */
export async function getMe(): Promise<Schemas["UserRead"] | null> {
  try {
    return await unwrap(api.GET("/api/v1/auth/me"));
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return null;
    throw e;
  }
}

export const meQueryOptions = () =>
  queryOptions({ queryKey: ["auth", "me"], queryFn: getMe, staleTime: 60_000 });

export const useMe = () => useQuery(meQueryOptions());

export async function logout(): Promise<void> {
  await unwrap(api.POST("/api/v1/auth/logout"));
}

export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => client.setQueryData(meQueryOptions().queryKey, null),
  });
}
