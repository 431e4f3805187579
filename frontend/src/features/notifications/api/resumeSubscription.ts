import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export const resumeSubscription = (id: number) =>
  unwrap(
    api.POST("/api/v1/notifications/subscriptions/{subscription_id}/resume", {
      params: { path: { subscription_id: id } },
    }),
  );

/** Resume a subscription paused for failing: its events are queued again. */
export function useResumeSubscription() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: resumeSubscription,
    onSuccess: () => client.invalidateQueries({ queryKey: ["notifications"] }),
  });
}
