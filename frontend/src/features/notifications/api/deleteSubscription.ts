import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export const deleteSubscription = (id: number) =>
  unwrap(
    api.DELETE("/api/v1/notifications/subscriptions/{subscription_id}", {
      params: { path: { subscription_id: id } },
    }),
  );

export function useDeleteSubscription() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteSubscription,
    onSuccess: () => client.invalidateQueries({ queryKey: ["notifications"] }),
  });
}
