import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { meQueryOptions } from "@/features/auth/api/getMe";

export const login = (username: string, password: string) =>
  unwrap(api.POST("/api/v1/auth/login", { body: { username, password } }));

export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ username, password }: { username: string; password: string }) => login(username, password),
    onSuccess: (user) => client.setQueryData(meQueryOptions().queryKey, user),
  });
}
