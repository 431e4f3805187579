import { describe, expect, it } from "vitest";
import {
  diffRows,
  diffTone,
  formatSignedPct,
  formatWeight,
  frameLabel,
  functionRows,
  sharedProfiles,
  toDiffFlameData,
  toFlameData,
  type DiffNode,
  type ProfileNode,
} from "@/lib/profiles";

const leaf = (name: string, value: number): ProfileNode => ({ name, value, self: value, children: [] });

describe("toFlameData", () => {
  it("keeps names and inclusive values, and copies every frame", () => {
    const tree: ProfileNode = {
      name: "all",
      value: 100,
      self: 0,
      children: [{ name: "main", value: 100, self: 10, children: [leaf("encrypt", 60), leaf("parse", 30)] }],
    };
    const data = toFlameData(tree);
    expect(data).toEqual({
      name: "all",
      value: 100,
      children: [
        {
          name: "main",
          value: 100,
          children: [
            { name: "encrypt", value: 60, children: [] },
            { name: "parse", value: 30, children: [] },
          ],
        },
      ],
    });
    // The library marks frames (fade, hide) while zooming: it must never touch the cached answer.
    expect(data.children[0]).not.toBe(tree.children[0]);
    expect(Object.isFrozen(data)).toBe(false);
  });
});

describe("toDiffFlameData", () => {
  it("sizes frames by the head and carries delta and base", () => {
    const tree: DiffNode = {
      name: "all",
      value: 110,
      delta: 10,
      base_value: 100,
      children: [
        { name: "encrypt", value: 70, delta: 20, base_value: 50, children: [] },
        { name: "gone", value: 0, delta: -10, base_value: 10, children: [] },
      ],
    };
    const data = toDiffFlameData(tree);
    expect(data.value).toBe(110);
    expect(data.children.map((c) => [c.name, c.value, c.delta, c.base])).toEqual([
      ["encrypt", 70, 20, 50],
      ["gone", 0, -10, 10],
    ]);
  });
});

describe("diffTone", () => {
  it("is red when a frame grew and blue when it shrank, by how much of its cost", () => {
    expect(diffTone(10, 110, 100)).toEqual({ tone: "grew", strength: 2 });
    expect(diffTone(-50, 50, 100)).toEqual({ tone: "shrank", strength: 4 });
    expect(diffTone(1, 101, 100)).toEqual({ tone: "grew", strength: 1 });
    expect(diffTone(20, 120, 100)).toEqual({ tone: "grew", strength: 3 });
  });

  it("calls a change under 0.5 % unchanged, and a new or removed frame a full change", () => {
    expect(diffTone(4, 1004, 1000)).toEqual({ tone: "same", strength: 0 });
    expect(diffTone(0, 0, 0)).toEqual({ tone: "same", strength: 0 });
    expect(diffTone(30, 30, 0)).toEqual({ tone: "grew", strength: 4 });
    expect(diffTone(-30, 0, 30)).toEqual({ tone: "shrank", strength: 4 });
  });
});

describe("functionRows", () => {
  it("orders by self cost and gives each cost's share of the total", () => {
    const rows = functionRows(
      [
        { name: "parse", self: 30, inclusive: 30 },
        { name: "encrypt", self: 60, inclusive: 60 },
        { name: "main", self: 10, inclusive: 100 },
      ],
      200,
    );
    expect(rows.map((r) => [r.name, r.selfPct, r.inclusivePct])).toEqual([
      ["encrypt", 30, 30],
      ["parse", 15, 15],
      ["main", 5, 50],
    ]);
  });

  it("has no shares without a total", () => {
    expect(functionRows([{ name: "f", self: 0, inclusive: 0 }], 0)[0]!.selfPct).toBe(0);
  });
});

describe("diffRows", () => {
  it("puts what grew most first and what shrank most last", () => {
    const fn = (name: string, delta: number) => ({
      name,
      self_base: 100,
      self_head: 100 + delta,
      delta_self: delta,
      pct_of_base_total: delta / 10,
    });
    expect(diffRows([fn("a", -5), fn("b", 40), fn("c", 0), fn("d", 3)]).map((r) => r.name)).toEqual([
      "b",
      "d",
      "c",
      "a",
    ]);
  });
});

describe("formatting", () => {
  it("says weights in their unit and changes with their sign", () => {
    expect(formatWeight(48_211, "instructions")).toBe("48.2k Ir");
    expect(formatWeight(1_250_000, "nanoseconds")).toBe("1.25 ms");
    expect(formatWeight(310, "samples")).toBe("310 samples");
    expect(formatWeight(3_400_000_000, "instructions")).toBe("3.4G Ir");
    expect(formatSignedPct(9.84)).toBe("+9.8 %");
    expect(formatSignedPct(20)).toBe("+20.0 %");
    expect(formatSignedPct(-0.3)).toBe("\u22120.3 %");
    expect(formatSignedPct(0.02)).toBe("0.0 %");
  });

  it("labels a frame with its share and, in a diff, its change against the base", () => {
    expect(frameLabel({ name: "encrypt", value: 50, children: [] }, 200, "samples")).toBe(
      "encrypt: 50 samples (25 %)",
    );
    expect(frameLabel({ name: "encrypt", value: 55, delta: 5, base: 50, children: [] }, 200, "samples")).toBe(
      "encrypt: 55 samples (27.5 %), +5 samples (+10.0 %) against the base",
    );
    expect(frameLabel({ name: "new", value: 5, delta: 5, base: 0, children: [] }, 100, "samples")).toBe(
      "new: 5 samples (5 %), +5 samples (new) against the base",
    );
  });
});

describe("sharedProfiles", () => {
  const p = (id: number, benchmark_id: number, benchmark: string, kind = "instructions") => ({
    id,
    benchmark_id,
    benchmark,
    parameters: {},
    kind,
  });

  it("lists the benchmark and kind pairs profiled in both runs, by name", () => {
    const base = [p(1, 7, "encrypt"), p(2, 8, "decrypt"), p(3, 9, "parse", "cpu"), p(8, 7, "encrypt", "cpu")];
    const head = [
      p(4, 8, "decrypt"),
      p(5, 7, "encrypt"),
      p(6, 9, "parse", "instructions"),
      p(7, 10, "new"),
      p(9, 7, "encrypt", "cpu"),
    ];
    expect(sharedProfiles(base, head).map((s) => [s.key, s.benchmark, s.kind])).toEqual([
      ["8:instructions", "decrypt", "instructions"],
      ["7:cpu", "encrypt", "cpu"],
      ["7:instructions", "encrypt", "instructions"],
    ]);
  });

  it("is empty when the runs share no profiled benchmark", () => {
    expect(sharedProfiles([p(1, 7, "encrypt")], [])).toEqual([]);
  });
});
