import { useEffect, useState } from "react";

export interface LazyModule<T> {
  /** Start loading now (e.g. at module evaluation), so the chunk arrives while data is fetched. */
  preload: () => Promise<T>;
  /** The module, or null until it has loaded. */
  useModule: () => T | null;
}

/**
 * A module in its own chunk, without <Suspense>: React 19 holds back a suspended tree's reveal
 * by up to 300 ms, which costs more than loading the chunk.
 */
export function lazyModule<T>(load: () => Promise<T>): LazyModule<T> {
  let loaded: T | null = null;
  let promise: Promise<T> | null = null;
  const preload = () =>
    (promise ??= load().then((m) => {
      loaded = m;
      return m;
    }));
  function useModule(): T | null {
    const [mod, setMod] = useState<T | null>(loaded);
    useEffect(() => {
      if (mod) return;
      let live = true;
      void preload().then((m) => live && setMod(() => m));
      return () => {
        live = false;
      };
    }, [mod]);
    return mod ?? loaded;
  }
  return { preload, useModule };
}
