import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { Schemas } from "@/api/types";

export type MySubscriptionCreate = Schemas["MySubscriptionCreate"];

/** Subscribe the signed-in user: e-mail to their own address. */
export const createMySubscription = (body: MySubscriptionCreate) =>
  unwrap(api.POST("/api/v1/notifications/subscriptions/mine", { body }));

export function useCreateMySubscription() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createMySubscription,
    onSuccess: () => client.invalidateQueries({ queryKey: ["notifications"] }),
  });
}
