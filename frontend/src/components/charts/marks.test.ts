import { describe, expect, it } from "vitest";
import { clip, placeMarks, type ChangeInput, type StepInput } from "@/components/charts/marks";
import { color } from "@/lib/tokens";

const data = [10, 11, 12, 13, 14, 15].map((run_id, i) => ({ run_id, x: 1_000 * i }));
const step = (extra: Partial<StepInput> = {}): StepInput => ({
  alert_id: 7,
  run_id: 12,
  level: "fail",
  status: "open",
  change_pct: 12.84,
  confirmed_by: "change-point",
  commit: "4025eefd74aa",
  ...extra,
});
const change = (extra: Partial<ChangeInput> = {}): ChangeInput => ({
  id: 3,
  run_id: 12,
  note: "expected: new allocator",
  created_by: "admin",
  ...extra,
});

describe("placeMarks", () => {
  it("puts a step at its first bad run, coloured and labelled by its level", () => {
    const [m] = placeMarks(data, [step()]);
    expect(m).toMatchObject({ kind: "step", runId: 12, x: 2_000, color: color.fail, muted: false, row: 0 });
    expect(m!.label).toBe("Fail step +12.8 % · worse");
    expect(m!.title).toBe(
      "Fail step of +12.8 % · worse from run #12 (4025eefd74), confirmed by a significant change point; alert open.",
    );
    expect(placeMarks(data, [step({ level: "warn" })])[0]!.color).toBe(color.warn);
    // A throughput 12.8 % worse fell: the label says so in the metric's own direction.
    expect(placeMarks(data, [step()], [], "higher_is_better")[0]!.label).toBe("Fail step −12.8 % · worse");
  });

  it("names the first bad commit a bisection found in the step's tooltip", () => {
    const culprit = { sha: "9f1c2d3e4b5a69788766", subject: "Inline the hash", author: "Ann <ann@x.test>" };
    const [m] = placeMarks(data, [step({ first_bad_commit: culprit })]);
    expect(m!.title).toBe(
      "Fail step of +12.8 % · worse from run #12 (4025eefd74), confirmed by a significant change point; alert open." +
        " First bad commit 9f1c2d3e4b5a “Inline the hash” by Ann <ann@x.test> (bisected).",
    );
    expect(m!.culprit).toBe("9f1c2d3e4b5a");
    expect(placeMarks(data, [step({ first_bad_commit: null })])[0]!.culprit).toBeUndefined();
  });

  it("mutes a resolved step and says so", () => {
    const [m] = placeMarks(data, [step({ status: "resolved" })]);
    expect(m).toMatchObject({ color: color.muted, muted: true });
    expect(m!.label).toBe("Fail step +12.8 % · worse (resolved)");
  });

  it("draws an accepted change dashed, on the row below, labelled with its note", () => {
    const marks = placeMarks(data, [step()], [change()]);
    expect(marks.map((m) => m.kind)).toEqual(["step", "change"]);
    expect(marks[1]).toMatchObject({ x: 2_000, dashed: true, row: 1, label: "expected: new allocator" });
    expect(marks[1]!.title).toContain("by admin");
  });

  it("leaves out marks whose run is not drawn, and turns labels left in the right half", () => {
    expect(placeMarks(data, [step({ run_id: 99 })], [change({ run_id: 98 })])).toEqual([]);
    expect(placeMarks(data, [step({ run_id: 11 })])[0]!.anchor).toBe("start");
    expect(placeMarks(data, [step({ run_id: 15 })])[0]!.anchor).toBe("end");
  });
});

describe("clip", () => {
  it("keeps short notes and ends long ones with an ellipsis", () => {
    expect(clip("new allocator")).toBe("new allocator");
    const long = clip("expected: moved to the new allocator and a bigger arena");
    expect(long.length).toBeLessThanOrEqual(28);
    expect(long.endsWith("…")).toBe(true);
  });

  it("marks an environment change (dotted, third row) at its run, and skips one outside the view", () => {
    const env = [
      { run_id: 14, previous_run_id: 13, text: "rustc 1.95 → 1.96" },
      { run_id: 99, previous_run_id: 98, text: "kernel Linux 6.1 → Linux 6.5" },
    ];
    const marks = placeMarks(data, [], [], "higher_is_better", env);
    expect(marks).toHaveLength(1);
    expect(marks[0]).toMatchObject({ kind: "environment", runId: 14, x: 4_000, row: 2, anchor: "end" });
    expect(marks[0]!.label).toBe("rustc 1.95 → 1.96");
    expect(marks[0]!.title).toContain("since run #13");
  });
});
