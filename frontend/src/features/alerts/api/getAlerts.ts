import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export const getAlerts = (statuses: readonly string[], system: string | null) =>
  unwrap(api.GET("/api/v1/alerts", { params: { query: { status: [...statuses], system, limit: 200 } } }));

export const alertsQueryOptions = (statuses: readonly string[], system: string | null) =>
  queryOptions({
    queryKey: ["alerts", "list", statuses, system],
    queryFn: () => getAlerts(statuses, system),
  });

export const useAlerts = (statuses: readonly string[], system: string | null) =>
  useQuery(alertsQueryOptions(statuses, system));
