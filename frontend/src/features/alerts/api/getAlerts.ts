import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { AlertStatus } from "@/api/types";

export const getAlerts = (statuses: readonly AlertStatus[], system: string | null) =>
  unwrap(api.GET("/api/v1/alerts", { params: { query: { status: [...statuses], system, limit: 200 } } }));

export const alertsQueryOptions = (statuses: readonly AlertStatus[], system: string | null) =>
  queryOptions({
    queryKey: ["alerts", "list", statuses, system],
    queryFn: () => getAlerts(statuses, system),
  });

export const useAlerts = (statuses: readonly AlertStatus[], system: string | null) =>
  useQuery(alertsQueryOptions(statuses, system));
