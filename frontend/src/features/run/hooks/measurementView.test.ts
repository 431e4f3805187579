import { describe, expect, it } from "vitest";
import { measurement } from "@/test/factories";
import { selectMeasurements, type MeasurementView } from "@/features/run/hooks/measurementView";

const rows = [
  measurement({ benchmark: "low", metric: "latency_p99_ms", level: "ok", change_pct: 0.4 }),
  measurement({
    benchmark: "medium",
    metric: "requests_per_second",
    level: "fail",
    change_pct: 11.8,
    p_value: 1e-9,
  }),
  measurement({ benchmark: "high", metric: "cpu_percent", level: "warn", change_pct: 6.2, p_value: 0.01 }),
  measurement({
    benchmark: "high",
    metric: "latency_avg_ms",
    level: "improved",
    change_pct: -7.5,
    p_value: 0.02,
  }),
  measurement({ benchmark: "alpha", metric: "cpu_percent", level: "no_baseline", change_pct: null }),
];
const view = (v: Partial<MeasurementView> = {}): MeasurementView => ({
  onlyRegressions: false,
  query: "",
  sort: "verdict",
  dir: "desc",
  ...v,
});
const names = (v: Partial<MeasurementView>) =>
  selectMeasurements(rows, view(v)).map((m) => `${m.benchmark}/${m.metric}`);

describe("selectMeasurements", () => {
  it("puts the worst verdict first by default", () => {
    expect(names({})).toEqual([
      "medium/requests_per_second",
      "high/cpu_percent",
      "high/latency_avg_ms",
      "low/latency_p99_ms",
      "alpha/cpu_percent",
    ]);
  });

  it("keeps only fail and warn with 'only regressions'", () => {
    expect(names({ onlyRegressions: true })).toEqual(["medium/requests_per_second", "high/cpu_percent"]);
  });

  it("filters by text over benchmark, metric and verdict word", () => {
    expect(names({ query: "CPU" })).toEqual(["high/cpu_percent", "alpha/cpu_percent"]);
    expect(names({ query: "improved" })).toEqual(["high/latency_avg_ms"]);
    expect(names({ query: "nothing-like-this" })).toEqual([]);
  });

  it("sorts by change both ways, missing changes last", () => {
    expect(names({ sort: "change", dir: "desc" })).toEqual([
      "medium/requests_per_second",
      "high/cpu_percent",
      "low/latency_p99_ms",
      "high/latency_avg_ms",
      "alpha/cpu_percent",
    ]);
    expect(names({ sort: "change", dir: "asc" })[0]).toBe("high/latency_avg_ms");
    expect(names({ sort: "change", dir: "asc" }).at(-1)).toBe("alpha/cpu_percent");
  });

  it("sorts by benchmark name and does not mutate its input", () => {
    const before = rows.map((r) => r.measurement_id);
    expect(names({ sort: "benchmark", dir: "asc" })[0]).toBe("alpha/cpu_percent");
    expect(rows.map((r) => r.measurement_id)).toEqual(before);
  });
});
