import { describe, expect, it } from "vitest";
import type { Schemas } from "@/api/types";
import {
  commonThresholds,
  countsText,
  differs,
  initialForm,
  requestBody,
  resultRows,
  seriesLink,
  seriesOptions,
  wouldMarks,
} from "@/features/backtest/hooks/shape";

const metric = (name: string, warn = 5, fail = 10): Schemas["MetricRead"] => ({
  name,
  unit: "ns",
  direction: "lower_is_better",
  warn_threshold: warn,
  fail_threshold: fail,
});

const system = {
  slug: "uvhttp",
  name: "uvhttp",
  branches: [
    { name: "dev", base_branch: "main", pinned_run_id: null },
    { name: "main", base_branch: null, pinned_run_id: null },
  ],
  testbeds: ["tb-1"],
  metrics: [metric("time"), metric("rss", 10, 20), metric("alloc")],
  benchmarks: [
    { id: 7, name: "parse", parameters: { size: 64 }, params_key: '{"size":64}', metrics: ["time", "rss"] },
    { id: 3, name: "encode", parameters: {}, params_key: "{}", metrics: ["time"] },
  ],
} as unknown as Schemas["SystemDetail"];

const alert = (run_id: number, level: "warn" | "fail" = "fail", kind: "step" | "drift" = "step") =>
  ({
    kind,
    level,
    run_id,
    commit: "abcdef1234",
    started_at: "2026-11-20T10:00:00Z",
    change_pct: 12.3,
    confirmed_by: "change-point",
  }) as Schemas["BacktestAlert"];

const series = (benchmark: string, would: Schemas["BacktestAlert"][], did: Schemas["BacktestAlert"][]) =>
  ({
    benchmark,
    benchmark_id: 7,
    parameters: {},
    params_key: "{}",
    metric: "time",
    testbed: "tb-1",
    would_open: would,
    did_open: did,
  }) as unknown as Schemas["BacktestSeries"];

describe("the form", () => {
  it("defaults to the thresholds most metrics have; a metric with others keeps them as its own", () => {
    expect(commonThresholds(system.metrics)).toEqual({ warn: "5", fail: "10" });
    expect(commonThresholds([])).toEqual({ warn: "5", fail: "10" });
    const form = initialForm(system);
    expect(form.branch).toBe("main");
    expect(form.thresholds).toEqual({ warn: "5", fail: "10" });
    expect(form.perMetric).toEqual({ rss: { warn: "10", fail: "20" } });
  });

  it("lists every benchmark variant × its metrics, by name", () => {
    expect(seriesOptions(system).map((o) => [o.key, o.benchmark, o.parameters, o.metric])).toEqual([
      ["3:time", "encode", "", "time"],
      ["7:time", "parse", "size=64", "time"],
      ["7:rss", "parse", "size=64", "rss"],
    ]);
  });

  it("sends the thresholds, and as overrides only the metrics set otherwise", () => {
    const form = { ...initialForm(system), thresholds: { warn: "15", fail: "20" } };
    const out = requestBody("uvhttp", form, seriesOptions(system));
    expect(out).toEqual({
      body: {
        system: "uvhttp",
        branch: "main",
        testbed: null,
        benchmark_id: null,
        metric: null,
        warn: 15,
        fail: 20,
        overrides: [{ metric: "rss", warn: 10, fail: 20 }],
        max_runs: 500,
      },
    });
    const one = { ...form, scope: "one" as const, series: "7:rss", perMetric: {} };
    const body = requestBody("uvhttp", one, seriesOptions(system));
    expect("body" in body && [body.body.benchmark_id, body.body.metric, body.body.overrides]).toEqual([
      7,
      "rss",
      [],
    ]);
  });

  it("names what to fix before sending anything", () => {
    const form = initialForm(system);
    const problems = (f: Partial<typeof form>) => {
      const out = requestBody("uvhttp", { ...form, ...f }, seriesOptions(system));
      return "problems" in out ? out.problems : [];
    };
    expect(problems({ thresholds: { warn: "10", fail: "10" } })).toEqual([
      "Thresholds: warn (10 %) must be below fail (10 %).",
    ]);
    expect(problems({ thresholds: { warn: "0", fail: "10" } })).toEqual([
      "Thresholds: warn must be above 0 %.",
    ]);
    expect(problems({ thresholds: { warn: "5", fail: "2000" } })).toEqual([
      "Thresholds: fail must be at most 1000 %.",
    ]);
    expect(problems({ thresholds: { warn: "", fail: "10" } })).toEqual([
      "Thresholds: warn and fail must be numbers.",
    ]);
    expect(problems({ perMetric: { rss: { warn: "9", fail: "3" } } })).toEqual([
      "rss: warn (9 %) must be below fail (3 %).",
    ]);
    expect(problems({ scope: "one", series: null })).toEqual(["Pick the series to replay."]);
    expect(problems({ maxRuns: "10" })).toEqual(["Runs per series: a whole number from 20 to 5000."]);
    expect(problems({})).toEqual([]);
  });
});

describe("the results", () => {
  const same = series("same", [alert(5)], [alert(5)]);
  const more = series("more", [alert(5), alert(9, "warn", "drift")], [alert(5)]);
  const graded = series("graded", [alert(5, "warn")], [alert(5, "fail")]);
  const read = { series: [same, more, graded] } as unknown as Schemas["BacktestRead"];

  it("tells series whose alerts differ, and lists them first (or only them)", () => {
    expect([same, more, graded].map(differs)).toEqual([false, true, true]);
    expect(resultRows(read, false).map((s) => s.benchmark)).toEqual(["more", "graded", "same"]);
    expect(resultRows(read, true).map((s) => s.benchmark)).toEqual(["more", "graded"]);
  });

  it("marks each would-open alert at its first bad run, apart from stored alerts", () => {
    expect(wouldMarks(more)).toEqual([
      {
        alert_id: -1,
        run_id: 5,
        level: "fail",
        status: "would open",
        change_pct: 12.3,
        confirmed_by: "change-point",
        commit: "abcdef1234",
      },
      expect.objectContaining({ alert_id: -2, run_id: 9, level: "warn" }),
    ]);
  });

  it("links a series to its chart on the system page, and says the counts in words", () => {
    expect(seriesLink("uv http", "dev", same)).toBe(
      "/systems/uv%20http?benchmark=same&metric=time&params=%7B%7D&range=all&branch=dev&testbed=tb-1",
    );
    expect(countsText({ events: 0, per_100_runs: 0, warn: 0, fail: 0, step: 0, drift: 0 })).toBe("no alerts");
    expect(countsText({ events: 2, per_100_runs: 0.25, warn: 1, fail: 1, step: 2, drift: 0 })).toBe(
      "2 alerts · 0.25 per 100 runs",
    );
  });
});
