import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export const getSystem = (slug: string) =>
  unwrap(api.GET("/api/v1/systems/{slug}", { params: { path: { slug } } }));

export const systemQueryOptions = (slug: string) =>
  queryOptions({ queryKey: ["systems", slug], queryFn: () => getSystem(slug) });

export const useSystem = (slug: string) => useQuery(systemQueryOptions(slug));
