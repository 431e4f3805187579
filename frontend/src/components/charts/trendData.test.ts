import { describe, expect, it } from "vitest";
import {
  nearestByTime,
  niceTicks,
  prepareTrend,
  timeTicks,
  type TrendPoint,
} from "@/components/charts/trendData";

const point = (
  t: string,
  value: number,
  baseline: number | null,
  extra: Partial<TrendPoint> = {},
): TrendPoint => ({
  run_id: 1,
  commit: "abc",
  t,
  value,
  min: value - 1,
  max: value + 1,
  stddev: 0.5,
  n: 5,
  level: "ok",
  baseline,
  change_pct: null,
  p_value: null,
  ...extra,
});

describe("prepareTrend", () => {
  it("puts the warn and fail zones below the baseline when higher is better", () => {
    const { data, domain } = prepareTrend([point("2026-11-01T00:00:00Z", 80, 100)], {
      direction: "higher_is_better",
      warn: 5,
      fail: 10,
    });
    expect(data[0]!.warnBand).toEqual([90, 95]);
    // The fail zone runs from the fail line down to the bottom of the view.
    expect(data[0]!.failBand).toEqual([domain[0], 90]);
    expect(domain[0]).toBeLessThan(80);
  });

  it("puts them above the baseline when lower is better", () => {
    const { data } = prepareTrend([point("2026-11-01T00:00:00Z", 10, 10)], {
      direction: "lower_is_better",
      warn: 10,
      fail: 20,
    });
    expect(data[0]!.warnBand![0]).toBeCloseTo(11);
    expect(data[0]!.warnBand![1]).toBeCloseTo(12);
    expect(data[0]!.failBand![0]).toBeCloseTo(12);
  });

  it("has no zones without a baseline, and no range for a single sample", () => {
    const { data } = prepareTrend([point("2026-11-01T00:00:00Z", 10, null, { n: 1 })], {
      direction: "lower_is_better",
      warn: 5,
      fail: 10,
    });
    expect(data[0]!.warnBand).toBeNull();
    expect(data[0]!.range).toBeNull();
  });

  it("fits the y domain to the data, not to far-away zones", () => {
    const { domain } = prepareTrend(
      [point("2026-11-01T00:00:00Z", 1000, 1000), point("2026-11-02T00:00:00Z", 1010, 1000)],
      { direction: "lower_is_better", warn: 50, fail: 100 },
    );
    expect(domain[0]).toBeGreaterThan(900);
    expect(domain[1]).toBeLessThan(1100);
  });
});

describe("ticks", () => {
  it("picks round y ticks that cover the range", () => {
    expect(niceTicks(3, 97, 5)).toEqual([0, 25, 50, 75, 100]);
    const ticks = niceTicks(14_380, 16_720, 5);
    expect(ticks[0]).toBeLessThanOrEqual(14_380);
    expect(ticks.at(-1)).toBeGreaterThanOrEqual(16_720);
    expect(ticks.length).toBeLessThanOrEqual(6);
  });

  it("picks whole-day time ticks over two months", () => {
    const from = Date.parse("2026-09-23T02:17:00Z");
    const to = Date.parse("2026-11-21T02:17:00Z");
    const ticks = timeTicks(from, to);
    expect(ticks.length).toBeGreaterThan(3);
    expect(ticks.length).toBeLessThanOrEqual(7);
    expect(ticks.every((t) => t % 86_400_000 === 0 && t >= from && t <= to)).toBe(true);
  });

  it("finds the point nearest a click", () => {
    const data = [{ x: 0 }, { x: 10 }, { x: 20 }];
    expect(nearestByTime(data, 13)).toEqual({ x: 10 });
    expect(nearestByTime([], 13)).toBeUndefined();
  });
});
