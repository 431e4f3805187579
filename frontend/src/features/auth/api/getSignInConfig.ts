import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/** The sign-in methods the server offers: passwords (unless switched off), an OIDC provider. */
export const getSignInConfig = () => unwrap(api.GET("/api/v1/auth/config"));

export const signInConfigQueryOptions = () =>
  queryOptions({ queryKey: ["auth", "config"], queryFn: getSignInConfig, staleTime: 5 * 60_000 });

export const useSignInConfig = () => useQuery(signInConfigQueryOptions());
