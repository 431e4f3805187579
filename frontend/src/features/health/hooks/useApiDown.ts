import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ApiError } from "@/api/errors";
import { useHealth } from "@/features/health/api/getHealth";

/** True while the API looks down: the health probe fails, or a query just failed to reach it. */
export function useApiDown(): boolean {
  const health = useHealth();
  const client = useQueryClient();
  const [queryUnreachable, setQueryUnreachable] = useState(false);
  useEffect(
    () =>
      client.getQueryCache().subscribe((event) => {
        if (event.type !== "updated" || event.query.queryKey[0] === "health") return;
        const { status, error } = event.query.state;
        if (status === "error" && error instanceof ApiError && error.unreachable) setQueryUnreachable(true);
        if (status === "success") setQueryUnreachable(false);
      }),
    [client],
  );
  return health.isError || queryUnreachable;
}
