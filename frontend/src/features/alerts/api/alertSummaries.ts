import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { AlertStatus } from "@/api/types";

export const getAlertSummaries = (statuses: readonly AlertStatus[], system: string | null) =>
  unwrap(
    api.GET("/api/v1/alert-summaries", { params: { query: { status: [...statuses], system, limit: 200 } } }),
  );

export const alertSummariesQueryOptions = (statuses: readonly AlertStatus[], system: string | null) =>
  queryOptions({
    queryKey: ["alerts", "summaries", statuses, system],
    queryFn: () => getAlertSummaries(statuses, system),
  });

export const useAlertSummaries = (statuses: readonly AlertStatus[], system: string | null) =>
  useQuery(alertSummariesQueryOptions(statuses, system));

/** A triage action on a summary, applied to all of its alerts. */
export type SummaryAction =
  | { kind: "acknowledge"; id: number }
  | { kind: "invalid"; id: number; note: string }
  | { kind: "issue"; id: number; issueUrl: string };

export const triageSummary = (action: SummaryAction) => {
  const path = { params: { path: { summary_id: action.id } } };
  switch (action.kind) {
    case "acknowledge":
      return unwrap(api.POST("/api/v1/alert-summaries/{summary_id}/acknowledge", path));
    case "invalid":
      return unwrap(
        api.POST("/api/v1/alert-summaries/{summary_id}/invalid", { ...path, body: { note: action.note } }),
      );
    case "issue":
      return unwrap(
        api.PATCH("/api/v1/alert-summaries/{summary_id}", { ...path, body: { issue_url: action.issueUrl } }),
      );
  }
};

export function useTriageSummary() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: triageSummary,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: ["alerts"] }),
        client.invalidateQueries({ queryKey: ["systems"] }),
      ]),
  });
}
