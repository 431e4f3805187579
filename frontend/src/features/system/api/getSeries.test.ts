import { describe, expect, it } from "vitest";
import { pointsOf } from "@/features/system/api/getSeries";

const columns = {
  run_id: [7, 9],
  commit: ["a1", null],
  t: [Date.UTC(2026, 0, 2, 3, 4, 5), Date.UTC(2026, 0, 3)],
  value: [101.5, 88],
  min: [100, null],
  max: [103, null],
  stddev: [1.2, null],
  n: [3, 1],
  level: ["ok" as const, "fail" as const],
  stage: [null, "suspected" as const],
  baseline: [100, 100.5],
  change_pct: [1.5, -12.4],
  p_value: [null, 0.01],
};

describe("pointsOf", () => {
  it("turns the answer's columns into the points the charts read, t as an ISO time", () => {
    const points = pointsOf(columns);
    expect(points).toHaveLength(2);
    expect(points[0]).toEqual({
      run_id: 7,
      commit: "a1",
      t: "2026-01-02T03:04:05.000Z",
      value: 101.5,
      min: 100,
      max: 103,
      stddev: 1.2,
      n: 3,
      level: "ok",
      stage: null,
      baseline: 100,
      change_pct: 1.5,
      p_value: null,
    });
    expect(points[1]).toMatchObject({ run_id: 9, commit: null, level: "fail", stage: "suspected" });
    expect(Date.parse(points[1]!.t)).toBe(columns.t[1]);
  });

  it("refuses columns of different lengths instead of drawing undefined points", () => {
    expect(() => pointsOf({ ...columns, value: [1] })).toThrow(/differ in length \(index 1\)/);
  });
});
