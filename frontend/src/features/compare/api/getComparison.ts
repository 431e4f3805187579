import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export const getComparison = (base: number, head: number) =>
  unwrap(api.GET("/api/v1/compare", { params: { query: { base, head } } }));

export const comparisonQueryOptions = (base: number, head: number) =>
  queryOptions({ queryKey: ["compare", base, head], queryFn: () => getComparison(base, head) });

export const useComparison = (base: number | null, head: number | null) =>
  useQuery({ ...comparisonQueryOptions(base ?? 0, head ?? 0), enabled: base !== null && head !== null });
