import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/** The systems a subscription may name (slugs only). */
export const getNotifySystems = () => unwrap(api.GET("/api/v1/systems"));

export const notifySystemsQueryOptions = () =>
  queryOptions({ queryKey: ["systems", "list"], queryFn: getNotifySystems });

export const useNotifySystems = () => useQuery(notifySystemsQueryOptions());
