import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { Schemas } from "@/api/types";

export const getUsers = () => unwrap(api.GET("/api/v1/auth/users"));

export const usersQueryOptions = () => queryOptions({ queryKey: ["admin", "users"], queryFn: getUsers });

export const useUsers = () => useQuery(usersQueryOptions());

export function useCreateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas["UserCreate"]) => unwrap(api.POST("/api/v1/auth/users", { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: ["admin", "users"] }),
  });
}

export function useSetUserDisabled() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, disabled }: { id: number; disabled: boolean }) =>
      unwrap(
        api.PUT("/api/v1/auth/users/{user_id}/disabled", {
          params: { path: { user_id: id } },
          body: { disabled },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: ["admin", "users"] }),
  });
}
