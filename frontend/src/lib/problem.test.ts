import { describe, expect, it } from "vitest";
import { ApiError } from "@/api/errors";
import { describeProblem } from "@/lib/problem";

describe("describeProblem", () => {
  const doing = "accept this change";
  it("says what to do when signed out, not allowed or cut off", () => {
    expect(describeProblem(new ApiError(401, "Unauthorized"), doing)).toBe(
      "Could not accept this change: you are no longer signed in. Sign in again and retry.",
    );
    expect(describeProblem(new ApiError(403, "Not allowed", "needs the trigger scope"), doing)).toBe(
      "Could not accept this change: your account is not allowed to (needs the trigger scope).",
    );
    expect(describeProblem(new ApiError(0, "The API cannot be reached"), doing)).toMatch(
      /cannot be reached\. Nothing was saved\.$/,
    );
  });

  it("passes the API's own words on otherwise", () => {
    expect(describeProblem(new ApiError(404, "Not found", "run 5 has no measurement of a/b/c."), doing)).toBe(
      "Could not accept this change: run 5 has no measurement of a/b/c.",
    );
    expect(describeProblem(new Error("boom"), doing)).toBe("Could not accept this change: boom.");
  });
});
