import type { Schemas } from "@/api/types";
import type { SystemSearch } from "@/features/system/hooks/useSystemSearch";

type Benchmark = Schemas["BenchmarkRead"];

/** Benchmarks by name, then parameters (the server's canonical key), so the order is stable. */
export function sortBenchmarks(benchmarks: readonly Benchmark[]): Benchmark[] {
  return [...benchmarks].sort(
    (a, b) => a.name.localeCompare(b.name) || a.params_key.localeCompare(b.params_key),
  );
}

/**
 * The benchmark the URL asks to focus: `params` in links is the server's `params_key` (canonical
 * JSON), so a variant is matched by that key alone; without `params`, the first of that name.
 */
export function focusedBenchmark(benchmarks: readonly Benchmark[], s: SystemSearch): number | null {
  if (!s.benchmark) return null;
  const match = benchmarks.find((b) => b.name === s.benchmark && (!s.params || b.params_key === s.params));
  return match?.id ?? null;
}
