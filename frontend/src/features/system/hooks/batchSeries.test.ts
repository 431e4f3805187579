import { describe, expect, it } from "vitest";
import {
  arrange,
  matchesQuery,
  toPoints,
  type Batch,
  type BatchSeries,
} from "@/features/system/hooks/batchSeries";

let id = 1;
function series(benchmark: string, metric: string, state: BatchSeries["state"], threads = 4): BatchSeries {
  return {
    benchmark,
    benchmark_id: id++,
    params_key: JSON.stringify({ threads }),
    parameters: { threads },
    metric,
    state,
    total: 2,
    downsampled: false,
    points: {
      run: [0, 1],
      value: [10, 12],
      min: [9, null],
      max: [11, null],
      stddev: [0.5, null],
      n: [5, 1],
      level: ["ok", "fail"],
      stage: [null, "suspected"],
      baseline: [null, 10],
      change_pct: [null, 20],
      p_value: [null, 0.01],
    },
    steps: [],
    changes: [],
  };
}

const runs: Batch["runs"] = {
  id: [41, 42],
  commit: ["aaa", null],
  t: [Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 2)],
};

describe("batch series", () => {
  it("turns columns back into chart rows through the shared run table", () => {
    const points = toPoints(series("encode", "time", "suspected"), runs);
    expect(points).toEqual([
      expect.objectContaining({
        run_id: 41,
        commit: "aaa",
        t: "2026-01-01T00:00:00.000Z",
        value: 10,
        min: 9,
        level: "ok",
      }),
      expect.objectContaining({
        run_id: 42,
        commit: null,
        value: 12,
        min: null,
        stage: "suspected",
        change_pct: 20,
      }),
    ]);
  });

  it("searches every word in benchmark, metric and parameters", () => {
    const s = series("encode", "throughput", "steady", 16);
    expect(matchesQuery(s, "")).toBe(true);
    expect(matchesQuery(s, "ENC thr")).toBe(true);
    expect(matchesQuery(s, "threads=16")).toBe(true);
    expect(matchesQuery(s, "threads=4")).toBe(false);
    expect(matchesQuery(s, "encode decode")).toBe(false);
  });

  it("puts regressed and suspected first, groups the rest by benchmark, filters changed", () => {
    const all = [
      series("zeta", "time", "regressed"),
      series("beta", "time", "suspected"),
      series("beta", "rate", "steady"),
      series("alpha", "time", "changed"),
      series("alpha", "rate", "steady"),
    ];
    const a = arrange(all, "", false);
    expect(a.attention.map((s) => s.benchmark)).toEqual(["zeta", "beta"]);
    expect(a.groups.map((g) => [g.name, g.series.length, g.changed])).toEqual([
      ["alpha", 2, 1],
      ["beta", 1, 0],
    ]);
    expect(a.shown).toBe(5);
    const changed = arrange(all, "", true);
    expect(changed.groups.map((g) => g.name)).toEqual(["alpha"]);
    expect(changed.shown).toBe(3);
    expect(arrange(all, "rate", false).attention).toEqual([]);
  });
});
