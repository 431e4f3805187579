import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export const cancelRun = (runId: number) =>
  unwrap(api.POST("/api/v1/runs/{run_id}/cancel", { params: { path: { run_id: runId } } }));

export function useCancelRun() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: cancelRun,
    onSuccess: () => client.invalidateQueries({ queryKey: ["runs"] }),
  });
}
