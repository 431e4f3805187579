import { useEffect, useState } from "react";

export interface RunProgress {
  done: number;
  total: number;
  scenario: string | null;
  percent: number;
  eta_s: number | null;
}

export interface LiveState {
  status: string | null;
  message: string | null;
  progress: RunProgress | null;
  lines: string[];
  ended: boolean;
  connected: boolean;
}

const MAX_LINES = 2000;
const INITIAL: LiveState = {
  status: null,
  message: null,
  progress: null,
  lines: [],
  ended: false,
  connected: false,
};

/** Follow a run's server-sent events (snapshot, state, progress, log, end). */
export function useRunEvents(runId: number, enabled: boolean): LiveState {
  const [live, setLive] = useState<LiveState>(INITIAL);
  useEffect(() => {
    if (!enabled) return;
    setLive(INITIAL);
    const source = new EventSource(`/api/v1/runs/${runId}/events`);
    const parse = (e: MessageEvent<string>) => JSON.parse(e.data) as Record<string, unknown>;
    source.onopen = () => setLive((s) => ({ ...s, connected: true }));
    source.addEventListener("snapshot", (e) => {
      const d = parse(e);
      setLive((s) => ({
        ...s,
        status: String(d.status),
        message: (d.message as string | null) ?? null,
        progress: (d.progress as RunProgress | null) ?? s.progress,
      }));
    });
    source.addEventListener("state", (e) => {
      const d = parse(e);
      setLive((s) => ({
        ...s,
        status: String(d.status),
        message: (d.message as string | null) ?? s.message,
      }));
    });
    source.addEventListener("progress", (e) => {
      const d = parse(e) as unknown as RunProgress;
      setLive((s) => ({ ...s, progress: d }));
    });
    source.addEventListener("log", (e) => {
      const d = parse(e);
      const add = (d.lines as string[] | undefined) ?? [];
      setLive((s) => ({ ...s, lines: [...s.lines, ...add].slice(-MAX_LINES) }));
    });
    source.addEventListener("end", (e) => {
      const d = parse(e);
      setLive((s) => ({ ...s, status: String(d.status), ended: true }));
      source.close();
    });
    source.onerror = () => setLive((s) => ({ ...s, connected: false }));
    return () => source.close();
  }, [runId, enabled]);
  return live;
}
