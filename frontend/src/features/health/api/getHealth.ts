import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/** The API's liveness probe; throws an ApiError when it cannot be reached or is unhealthy. */
export const getHealth = () => unwrap(api.GET("/healthz", { cache: "no-store" }));

export const healthQueryOptions = () =>
  queryOptions({ queryKey: ["health"], queryFn: getHealth, refetchInterval: 15_000, retry: false });

export const useHealth = () => useQuery(healthQueryOptions());
