import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { meQueryOptions } from "@/features/auth/api/getMe";

/** End the session on the server. */
export const logout = () => unwrap(api.POST("/api/v1/auth/logout"));

export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => client.setQueryData(meQueryOptions().queryKey, null),
  });
}
