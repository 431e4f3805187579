import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { Schemas } from "@/api/types";

export const getTokens = () => unwrap(api.GET("/api/v1/auth/tokens"));

export const tokensQueryOptions = () => queryOptions({ queryKey: ["admin", "tokens"], queryFn: getTokens });

export const useTokens = () => useQuery(tokensQueryOptions());

/** Create a token: the answer holds its full text, shown once. */
export function useCreateToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas["TokenCreate"]) => unwrap(api.POST("/api/v1/auth/tokens", { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: ["admin", "tokens"] }),
  });
}

export function useRevokeToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: number) =>
      unwrap(api.POST("/api/v1/auth/tokens/{token_id}/revoke", { params: { path: { token_id: tokenId } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ["admin", "tokens"] }),
  });
}
