import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export const getSubscriptions = () => unwrap(api.GET("/api/v1/notifications/subscriptions"));

export const subscriptionsQueryOptions = () =>
  queryOptions({ queryKey: ["notifications", "subscriptions"], queryFn: getSubscriptions });

export const useSubscriptions = (enabled: boolean) => useQuery({ ...subscriptionsQueryOptions(), enabled });
