import { RUN_EVENT_KINDS, type RunEventKind, type RunEvents } from "@/api/types";

export type RunEventHandlers = { [K in RunEventKind]?: (data: RunEvents[K]) => void } & {
  /** The stream is (re)connected. */
  open?: () => void;
  /** The connection dropped; the browser reconnects by itself until `end`. */
  error?: () => void;
};

/** Follow `GET /api/v1/runs/{id}/events` (server-sent events); returns the function that stops. */
export function subscribeRunEvents(runId: number, on: RunEventHandlers): () => void {
  const source = new EventSource(`/api/v1/runs/${runId}/events`);
  source.onopen = () => on.open?.();
  source.onerror = () => on.error?.();
  for (const kind of RUN_EVENT_KINDS) {
    source.addEventListener(kind, (e) => {
      const data: unknown = JSON.parse((e as MessageEvent<string>).data);
      (on[kind] as ((d: unknown) => void) | undefined)?.(data);
      if (kind === "end") source.close();
    });
  }
  return () => source.close();
}
