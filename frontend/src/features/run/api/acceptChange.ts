import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { Schemas } from "@/api/types";

/** Accept a series' step as expected (signed-in user): its baseline restarts at `run_id`, its open alert closes. */
export const acceptChange = (body: Schemas["ChangeCreate"]) =>
  unwrap(api.POST("/api/v1/series/changes", { body }));

/** The mutation; afterwards every chart, alert list and run that could show the change is reloaded. */
export function useAcceptChange() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: acceptChange,
    onSuccess: () =>
      Promise.all(
        ["series", "alerts", "systems", "runs"].map((key) => client.invalidateQueries({ queryKey: [key] })),
      ),
  });
}
