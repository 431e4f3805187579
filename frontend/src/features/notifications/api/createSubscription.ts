import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { Schemas } from "@/api/types";

export type SubscriptionCreate = Schemas["SubscriptionCreate"];

export const createSubscription = (body: SubscriptionCreate) =>
  unwrap(api.POST("/api/v1/notifications/subscriptions", { body }));

export function useCreateSubscription() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createSubscription,
    onSuccess: () => client.invalidateQueries({ queryKey: ["notifications"] }),
  });
}
