import { useEffect, useState } from "react";
import type { RunProgress, RunStatus } from "@/api/types";
import { subscribeRunEvents } from "@/features/run/api/runEvents";

export interface LiveState {
  status: RunStatus | null;
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

/** A run's live state from its server-sent events (snapshot, state, progress, log, end). */
export function useRunEvents(runId: number, enabled: boolean): LiveState {
  const [live, setLive] = useState<LiveState>(INITIAL);
  useEffect(() => {
    if (!enabled) return;
    setLive(INITIAL);
    const patch = (p: Partial<LiveState> | ((s: LiveState) => Partial<LiveState>)) =>
      setLive((s) => ({ ...s, ...(typeof p === "function" ? p(s) : p) }));
    return subscribeRunEvents(runId, {
      open: () => patch({ connected: true }),
      error: () => patch({ connected: false }),
      snapshot: (d) =>
        patch((s) => ({ status: d.status, message: d.message, progress: d.progress ?? s.progress })),
      state: (d) => patch((s) => ({ status: d.status, message: d.message ?? s.message })),
      progress: (d) => patch({ progress: d }),
      log: (d) => patch((s) => ({ lines: [...s.lines, ...d.lines].slice(-MAX_LINES) })),
      end: (d) => patch({ status: d.status, ended: true }),
    });
  }, [runId, enabled]);
  return live;
}
