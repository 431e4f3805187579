import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { api, unwrap } from "@/api/client";
import type { Schemas } from "@/api/types";

export type Bisection = Schemas["BisectionRead"];

/** How often an alert's bisections reload while one of them is still running. */
export const BISECTION_POLL_MS = 1_000;

export const getAlertBisections = (alertId: number) =>
  unwrap(api.GET("/api/v1/alerts/{alert_id}/bisections", { params: { path: { alert_id: alertId } } }));

export const alertBisectionsQueryOptions = (alertId: number) =>
  queryOptions({
    queryKey: ["bisections", "alert", alertId],
    queryFn: () => getAlertBisections(alertId),
  });

/** An alert's bisections, newest first, polled while one runs (the live view of its steps);
 * when the running one ends, the alerts reload (the alert names the first bad commit). */
export function useAlertBisections(alertId: number, enabled: boolean) {
  const client = useQueryClient();
  const query = useQuery({
    ...alertBisectionsQueryOptions(alertId),
    enabled,
    refetchInterval: (q) => (q.state.data?.some((b) => b.state === "running") ? BISECTION_POLL_MS : false),
  });
  const running = query.data?.some((b) => b.state === "running") ?? false;
  const wasRunning = useRef(false);
  useEffect(() => {
    if (wasRunning.current && !running) void client.invalidateQueries({ queryKey: ["alerts"] });
    wasRunning.current = running;
  }, [running, client]);
  return query;
}

export function useStartBisection(alertId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/alerts/{alert_id}/bisections", {
          params: { path: { alert_id: alertId } },
          body: { first_parent: true },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: ["bisections", "alert", alertId] }),
  });
}

export function useCancelBisection(alertId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (bisectionId: number) =>
      unwrap(
        api.POST("/api/v1/bisections/{bisection_id}/cancel", {
          params: { path: { bisection_id: bisectionId } },
        }),
      ),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: ["bisections", "alert", alertId] }),
        client.invalidateQueries({ queryKey: ["alerts"] }),
      ]),
  });
}
