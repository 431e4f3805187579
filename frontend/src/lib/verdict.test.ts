import { describe, expect, expectTypeOf, it } from "vitest";
import { levelValues } from "@/api/schema";
import type { Level } from "@/api/types";
import { isLevel, LEVEL_ORDER, LEVELS, toLevel } from "@/lib/verdict";

describe("verdict levels come from the API's OpenAPI document", () => {
  it("words, colours and shapes every level the API declares, and no other", () => {
    expect([...LEVEL_ORDER].sort()).toEqual([...levelValues].sort());
    for (const level of levelValues) expect(LEVELS[level].label).toBeTruthy();
  });

  it("is a type error to miss a level (LEVELS is keyed by the generated Level)", () => {
    expectTypeOf<keyof typeof LEVELS>().toEqualTypeOf<Level>();
    // A level the generated union lacks is no level: the type test fails on a stale mapping.
    expectTypeOf<"something-new">().not.toMatchTypeOf<Level>();
  });

  it("reads a point without a verdict as no baseline, and tells levels from other strings", () => {
    expect(toLevel(null)).toBe("no_baseline");
    expect(toLevel("fail")).toBe("fail");
    expect(isLevel("learning")).toBe(true);
    expect(isLevel("something-new")).toBe(false);
    expect(LEVELS.learning.label).toBe("Learning");
  });
});
