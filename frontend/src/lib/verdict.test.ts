import { describe, expect, it } from "vitest";
import { describeRuns, LEVELS, toLevel, verdictSentence, type VerdictFields } from "@/lib/verdict";

const base: VerdictFields = {
  level: "fail",
  change_pct: 11.783612406867679,
  p_value: 5.346508497944201e-20,
  gate: "welch",
  warn_threshold: 5,
  fail_threshold: 10,
  baseline_run_ids: [45, 44, 43, 42, 41],
  baseline_source: "median",
  unit: "req/s",
  direction: "higher_is_better",
};

describe("verdictSentence", () => {
  it("explains a fail the way the backend does", () => {
    // The backend's sentence for the demo's injected regression, verbatim.
    expect(verdictSentence(base)).toBe(
      "11.8 % slower than the median of runs #41–#45 (p = 5.3e-20); fail threshold 10 %.",
    );
  });

  it("explains a warn with both thresholds", () => {
    expect(
      verdictSentence({
        ...base,
        level: "warn",
        change_pct: 7.04,
        p_value: 0.0021,
        unit: "ns",
        direction: "lower_is_better",
      }),
    ).toBe(
      "7.0 % slower than the median of runs #41–#45 (p = 0.0021); warn threshold 5 %, fail threshold 10 %.",
    );
  });

  it("says worse/better for units that are not times or rates", () => {
    expect(
      verdictSentence({
        ...base,
        level: "ok",
        change_pct: -0.16,
        unit: "%",
        direction: "lower_is_better",
        warn_threshold: 10,
        fail_threshold: 20,
      }),
    ).toBe("Within 10 % of the median of runs #41–#45 (0.2 % better than the median of runs #41–#45).");
  });

  it("explains noise and history gates", () => {
    expect(verdictSentence({ ...base, level: "noisy", gate: "mad", z_score: 1.7, p_value: null })).toBe(
      "11.8 % slower than the median of runs #41–#45, but not significant (robust z = 1.7 against the series' recent history; needs z ≥ 4): treated as noise.",
    );
    expect(
      verdictSentence({ ...base, level: "improved", change_pct: -8.25, gate: "welch", p_value: 0.01 }),
    ).toBe("8.3 % faster than the median of runs #41–#45 (p = 0.01); improvement threshold 5 %.");
  });

  it("says a young series is learning, never noisy", () => {
    const young = { ...base, level: "learning", gate: "history-too-short", p_value: null };
    expect(verdictSentence({ ...young, reason: "7 of the 10 runs needed to measure the noise" })).toBe(
      "11.8 % slower than the median of runs #41–#45; learning, not judged yet: 7 of the 10 runs needed to measure the noise.",
    );
    expect(toLevel("learning")).toBe("learning");
    expect(LEVELS.learning.label).toBe("Learning");
  });

  it("handles the first run and unstable samples", () => {
    expect(verdictSentence({ ...base, level: "no_baseline" })).toBe(
      "No earlier run on this branch and testbed to compare with.",
    );
    expect(verdictSentence({ ...base, level: "unstable", cv: 0.153 })).toBe(
      "Samples vary too much to judge (cv 15.3 % > 10 %); 11.8 % slower than the median of runs #41–#45.",
    );
  });
});

describe("describeRuns and toLevel", () => {
  it("names the baseline runs", () => {
    expect(describeRuns([7], "median")).toBe("run #7");
    expect(describeRuns([3, 9, 5], "median")).toBe("the median of runs #3, #5, #9");
    expect(describeRuns([3], "pinned")).toBe("the pinned baseline run #3");
    expect(describeRuns([], null)).toBe("the baseline");
  });

  it("never reads an unknown level as ok", () => {
    expect(toLevel("fail")).toBe("fail");
    expect(toLevel("something-new")).toBe("noisy");
    expect(toLevel(null)).toBe("no_baseline");
  });
});
