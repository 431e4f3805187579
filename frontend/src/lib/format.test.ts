import { describe, expect, it } from "vitest";
import {
  digitsForStep,
  formatChange,
  formatWorse,
  formatDuration,
  formatParameters,
  formatPValue,
  formatRelative,
  formatValue,
} from "@/lib/format";

describe("formatValue", () => {
  it.each([
    [1.5, "ns", "1.5 ns"],
    [1234, "ns", "1.23 µs"],
    [20_700, "ns", "20.7 µs"],
    [8.2, "ms", "8.2 ms"],
    [0.85, "ms", "850 µs"],
    [1500, "ms", "1.5 s"],
    [85, "us", "85 µs"],
    [2500, "µs", "2.5 ms"],
    [16544, "req/s", "16.5k req/s"],
    [505_000, "req/s", "505k req/s"],
    [1_250_000, "ops/s", "1.25M ops/s"],
    [950, "req/s", "950 req/s"],
    [12, "MiB/s", "12 MiB/s"],
    [0.5, "MiB/s", "512 KiB/s"],
    [2048, "MiB/s", "2 GiB/s"],
    [512, "MiB", "512 MiB"],
    [96.918, "%", "96.9 %"],
    [42, "count", "42"],
    [12_000, "", "12k"],
  ])("%s %s → %s", (value, unit, expected) => {
    expect(formatValue(value, unit)).toBe(expected);
  });

  it("shows a dash for a missing value", () => {
    expect(formatValue(null, "ms")).toBe("—");
    expect(formatValue(undefined, "ms")).toBe("—");
  });

  it("keeps more digits when asked", () => {
    expect(formatValue(14554.07, "req/s", 4)).toBe("14.55k req/s");
  });
});

describe("digitsForStep", () => {
  it("adds digits when ticks are close together relative to their size", () => {
    expect(digitsForStep(124, 2)).toBe(3);
    expect(digitsForStep(124, 0.5)).toBe(4);
    expect(digitsForStep(16_500, 50)).toBe(4);
    expect(digitsForStep(5, 0)).toBe(3);
  });
});

describe("formatChange and formatPValue", () => {
  it("shows a change in the metric's own direction, with a word", () => {
    // change_pct is positive when worse: a latency that rose, a throughput that fell.
    expect(formatChange(11.783, "lower_is_better")).toBe("+11.8 % · worse");
    expect(formatChange(11.783, "higher_is_better")).toBe("−11.8 % · worse");
    expect(formatChange(-0.238, "lower_is_better")).toBe("−0.2 % · better");
    expect(formatChange(-4, "higher_is_better")).toBe("+4.0 % · better");
    expect(formatChange(0.01, "higher_is_better")).toBe("±0.0 %");
    expect(formatChange(null, "lower_is_better")).toBe("—");
  });

  it("words a change on an axis shared by both directions", () => {
    expect(formatWorse(12)).toBe("12 % worse");
    expect(formatWorse(-3.25)).toBe("3.3 % better");
    expect(formatWorse(0)).toBe("0 %");
  });

  it("writes p-values like the backend", () => {
    expect(formatPValue(0.0123)).toBe("0.0123");
    expect(formatPValue(5.3465e-20)).toBe("5.3e-20");
    expect(formatPValue(0.5)).toBe("0.5");
    expect(formatPValue(null)).toBe("—");
  });
});

describe("times and parameters", () => {
  it("says how long ago, and how long", () => {
    const now = new Date("2026-11-22T12:00:00Z");
    expect(formatRelative("2026-11-21T12:00:00Z", now)).toBe("yesterday");
    expect(formatRelative("2026-11-22T09:00:00Z", now)).toBe("3 hours ago");
    expect(formatDuration("2026-11-07T02:17:23Z", "2026-11-07T02:26:23Z")).toBe("9 min 0 s");
    expect(formatDuration("2026-11-07T02:17:23Z", null)).toBe("—");
  });

  it("joins parameters in their order", () => {
    expect(formatParameters({ threads: 4, connections: 50 })).toBe("threads=4 · connections=50");
    expect(formatParameters({})).toBe("");
  });
});
