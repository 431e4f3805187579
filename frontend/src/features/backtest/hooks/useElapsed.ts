import { useEffect, useState } from "react";

/** Whole seconds since `running` became true (0 while it is false). */
export function useElapsed(running: boolean): number {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    if (!running) return;
    const start = Date.now();
    setSeconds(0);
    const timer = window.setInterval(() => setSeconds(Math.floor((Date.now() - start) / 1000)), 250);
    return () => window.clearInterval(timer);
  }, [running]);
  return running ? seconds : 0;
}
