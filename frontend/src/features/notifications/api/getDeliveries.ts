import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export const getDeliveries = (id: number) =>
  unwrap(
    api.GET("/api/v1/notifications/subscriptions/{subscription_id}/deliveries", {
      params: { path: { subscription_id: id }, query: { limit: 20 } },
    }),
  );

/** The log refreshes every 2 s while a delivery is still on its way. */
export const deliveriesQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ["notifications", "deliveries", id],
    queryFn: () => getDeliveries(id),
    refetchInterval: (query) =>
      (query.state.data ?? []).some((d) => !["delivered", "failed"].includes(d.status)) ? 2000 : false,
  });

export const useDeliveries = (id: number) => useQuery(deliveriesQueryOptions(id));
