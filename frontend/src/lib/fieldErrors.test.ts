import { describe, expect, it } from "vitest";
import { ApiError } from "@/api/errors";
import { allShown, fieldErrors } from "@/lib/fieldErrors";

const problem = (...errors: { loc: (string | number)[]; msg: string }[]) =>
  new ApiError(422, "Invalid input", "…", errors);

describe("fieldErrors", () => {
  it("puts each error beside its field, a pattern in the form's own words", () => {
    const error = problem(
      { loc: ["name"], msg: "String should have at most 120 characters" },
      { loc: ["systems", 1], msg: "String should match pattern '^[a-z0-9][a-z0-9_.-]{0,63}$'" },
    );
    const shown = fieldErrors(
      error,
      ["name", "systems"],
      { systems: (item) => `“${item}” is not a system slug.` },
      { systems: ["cachex", "Relay X"] },
    );
    expect(shown).toEqual({
      name: "Use at most 120 characters.",
      systems: "“Relay X” is not a system slug.",
    });
    expect(allShown(error, shown)).toBe(true);
  });

  it("leaves other errors to the general message", () => {
    expect(fieldErrors(new ApiError(500, "Internal"), ["name"])).toEqual({});
    const other = problem({ loc: ["query", "x"], msg: "bad" });
    expect(allShown(other, fieldErrors(other, ["name"]))).toBe(false);
  });
});
