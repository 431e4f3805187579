import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/** The runs a person can pick from: the newest 200 of a system, every branch. */
export const getRunChoices = (system: string) =>
  unwrap(api.GET("/api/v1/runs", { params: { query: { system, limit: 200 } } }));

export const runChoicesQueryOptions = (system: string) =>
  queryOptions({ queryKey: ["runs", "choices", system], queryFn: () => getRunChoices(system) });

export const useRunChoices = (system: string | null) =>
  useQuery({ ...runChoicesQueryOptions(system ?? ""), enabled: Boolean(system) });
