import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ApiError } from "@/api/client";

async function getHealth(): Promise<true> {
  let response: Response;
  try {
    response = await fetch("/healthz", { cache: "no-store" });
  } catch {
    throw new ApiError(0, "The API cannot be reached");
  }
  if (!response.ok) throw new ApiError(response.status, "The API is unhealthy");
  return true;
}

/** True while the API looks down: the health probe fails, or a query just failed to reach it. */
export function useApiDown(): boolean {
  const health = useQuery({
    queryKey: ["health"],
    queryFn: getHealth,
    refetchInterval: 15_000,
    retry: false,
  });
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
