import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export const acknowledgeAlert = (alertId: number) =>
  unwrap(api.POST("/api/v1/alerts/{alert_id}/acknowledge", { params: { path: { alert_id: alertId } } }));

export function useAcknowledgeAlert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: acknowledgeAlert,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: ["alerts"] }),
        client.invalidateQueries({ queryKey: ["systems"] }),
      ]),
  });
}
