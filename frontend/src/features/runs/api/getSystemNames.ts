import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export const getSystemNames = () => unwrap(api.GET("/api/v1/systems"));

export const systemNamesQueryOptions = () => queryOptions({ queryKey: ["systems"], queryFn: getSystemNames });

export const useSystemNames = () => useQuery(systemNamesQueryOptions());
