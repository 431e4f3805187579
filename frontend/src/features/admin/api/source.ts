import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { components } from "@/api/schema";

export type SourceUpdate = components["schemas"]["SourceUpdate"];

export const getSource = (slug: string) =>
  unwrap(api.GET("/api/v1/systems/{slug}/source", { params: { path: { slug } } }));

export const useSource = (slug: string) =>
  useQuery({ queryKey: ["admin", "source", slug], queryFn: () => getSource(slug) });

/** Set a system's source (a new slug makes a new system); audited on the server. */
export function useSetSource() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ slug, body }: { slug: string; body: SourceUpdate }) =>
      unwrap(api.PUT("/api/v1/systems/{slug}/source", { params: { path: { slug } }, body })),
    onSuccess: (_, { slug }) =>
      Promise.all([
        client.invalidateQueries({ queryKey: ["admin", "source", slug] }),
        client.invalidateQueries({ queryKey: ["systems"] }),
      ]),
  });
}
