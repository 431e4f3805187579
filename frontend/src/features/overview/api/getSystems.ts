import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export const getSystems = () => unwrap(api.GET("/api/v1/systems"));

export const systemsQueryOptions = () => queryOptions({ queryKey: ["systems"], queryFn: getSystems });

export const useSystems = () => useQuery(systemsQueryOptions());
