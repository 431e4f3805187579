import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export const sendTest = (id: number) =>
  unwrap(
    api.POST("/api/v1/notifications/subscriptions/{subscription_id}/test", {
      params: { path: { subscription_id: id } },
    }),
  );

export function useSendTest() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: sendTest,
    onSuccess: (_, id) => client.invalidateQueries({ queryKey: ["notifications", "deliveries", id] }),
  });
}
