import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export const getRecentRegressions = () =>
  unwrap(api.GET("/api/v1/alerts", { params: { query: { status: ["open", "acknowledged"], limit: 20 } } }));

export const recentRegressionsQueryOptions = () =>
  queryOptions({ queryKey: ["alerts", "recent"], queryFn: getRecentRegressions });

export const useRecentRegressions = () => useQuery(recentRegressionsQueryOptions());
