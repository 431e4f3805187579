import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export const getSystemNames = () => unwrap(api.GET("/api/v1/systems"));

export const useSystemNames = () =>
  useQuery(queryOptions({ queryKey: ["systems"], queryFn: getSystemNames }));

export const getMetrics = (slug: string) =>
  unwrap(api.GET("/api/v1/systems/{slug}/metrics", { params: { path: { slug } } }));

export const useMetrics = (slug: string | null) =>
  useQuery({
    queryKey: ["admin", "metrics", slug],
    queryFn: () => getMetrics(slug ?? ""),
    enabled: Boolean(slug),
  });

export const getManifest = (slug: string) =>
  unwrap(api.GET("/api/v1/systems/{slug}/manifest", { params: { path: { slug } } }));

export const useManifest = (slug: string | null) =>
  useQuery({
    queryKey: ["admin", "manifest", slug],
    queryFn: () => getManifest(slug ?? ""),
    enabled: Boolean(slug),
  });

/** Set a metric's warn and fail thresholds (percent); audited on the server. */
export function useSetThresholds(slug: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ metric, warn, fail }: { metric: string; warn: number; fail: number }) =>
      unwrap(
        api.PUT("/api/v1/systems/{slug}/metrics/{metric}", {
          params: { path: { slug, metric } },
          body: { warn_threshold: warn, fail_threshold: fail },
        }),
      ),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: ["admin", "metrics", slug] }),
        client.invalidateQueries({ queryKey: ["series"] }),
      ]),
  });
}

/** Set a metric's value range (null: unbounded on that side); audited, enforced at ingest. */
export function useSetBounds(slug: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ metric, min, max }: { metric: string; min: number | null; max: number | null }) =>
      unwrap(
        api.PUT("/api/v1/systems/{slug}/metrics/{metric}/bounds", {
          params: { path: { slug, metric } },
          body: { min_value: min, max_value: max },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: ["admin", "metrics", slug] }),
  });
}

/** Name (or forget) the system's repository, so alerts link their commit range. */
export function useSetRepository(slug: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (repository: string | null) =>
      unwrap(
        api.PUT("/api/v1/systems/{slug}/settings", { params: { path: { slug } }, body: { repository } }),
      ),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: ["admin", "manifest", slug] }),
        client.invalidateQueries({ queryKey: ["alerts"] }),
      ]),
  });
}
