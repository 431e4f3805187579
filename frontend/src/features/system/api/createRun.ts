import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { Schemas } from "@/api/types";

/** Queue a run of a system (needs a signed-in user). */
export const createRun = (body: Schemas["RunCreate"]) => unwrap(api.POST("/api/v1/runs", { body }));

export function useCreateRun() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createRun,
    onSuccess: () => client.invalidateQueries({ queryKey: ["runs"] }),
  });
}
