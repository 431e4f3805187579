import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { Schemas } from "@/api/types";

const RULES = ["admin", "retention", "rules"] as const;
const PREVIEW = ["admin", "retention", "preview"] as const;

export const retentionRulesQueryOptions = () =>
  queryOptions({ queryKey: RULES, queryFn: () => unwrap(api.GET("/api/v1/retention/rules")) });

export const useRetentionRules = () => useQuery(retentionRulesQueryOptions());

/** The dry run: what the stored rules would remove now. */
export const useRetentionPreview = () =>
  useQuery({ queryKey: PREVIEW, queryFn: () => unwrap(api.GET("/api/v1/retention/preview")) });

export function useSetRetentionRules() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (rules: Schemas["RuleIn"][]) =>
      unwrap(api.PUT("/api/v1/retention/rules", { body: { rules } })),
    onSuccess: (stored) => {
      client.setQueryData(RULES, stored);
      void client.invalidateQueries({ queryKey: PREVIEW });
    },
  });
}
