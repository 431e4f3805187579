import { describe, expect, it } from "vitest";
import { stageValues } from "@/api/schema";
import { confirmedByWords, floorsText, floorsTitle, STAGES, toStage } from "@/lib/stage";

const floors = { floor_warn: 5, floor_fail: 10, variation: 0.83, warn_threshold: 5, fail_threshold: 10 };

describe("floors", () => {
  it("names the effective warn floor and the series' noise", () => {
    expect(floorsText(floors)).toBe("floor 5 % · noise 0.83 %");
    expect(floorsText({ ...floors, floor_warn: 16.2, variation: 8.1 })).toBe("floor 16.2 % · noise 8.1 %");
    expect(floorsText({ ...floors, variation: null })).toBe("floor 5 % · noise not measured yet");
    expect(floorsText({ ...floors, floor_warn: null })).toBeNull();
  });

  it("says in the long form whether the noise raised the floors", () => {
    expect(floorsTitle(floors)).toMatch(/^Warn floor 5 %, fail floor 10 %: the configured thresholds/);
    expect(floorsTitle({ ...floors, floor_warn: 16.2, floor_fail: 21 })).toBe(
      "Warn floor 16.2 %, fail floor 21 %: raised above the configured 5 % / 10 % by this series' noise.",
    );
  });
});

describe("stages", () => {
  it("words every stage the API declares, and nothing else", () => {
    expect(Object.keys(STAGES).sort()).toEqual([...stageValues].sort());
    expect([...stageValues, null].map(toStage)).toEqual([...stageValues, null]);
  });

  it("words how a step was confirmed", () => {
    expect(confirmedByWords("change-point")).toBe("a significant change point");
    expect(confirmedByWords("persistence")).toBe("the next runs staying worse");
    expect(confirmedByWords("re-runs")).toBe("re-runs of the same commit");
    expect(confirmedByWords("window")).toBe("the runs since shifted together (a windowed rank test)");
    expect(confirmedByWords(null)).toBe("a fail verdict (before two-stage alerts)");
  });
});
