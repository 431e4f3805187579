import { render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { StepLine, type StepFields } from "@/components/ui/StepLine";

const step: StepFields = {
  level: "warn",
  run_id: 16,
  commit: "4025eefd74aa0c",
  last_good_run_id: 15,
  last_good_commit: "ba36ba4823ff01",
  confirmed_by: "persistence",
};

const show = (s: StepFields) =>
  render(
    <MemoryRouter>
      <StepLine step={s} />
    </MemoryRouter>,
  );

describe("StepLine", () => {
  it("names the level, the commit range last good..first bad and how it was confirmed", () => {
    show(step);
    expect(screen.getByTestId("step-line").textContent).toBe(
      "Worse (warn)commits ba36ba4823..4025eefd74confirmed by the next runs staying worse",
    );
    expect(screen.getByTestId("commit-range").textContent).toBe("ba36ba4823..4025eefd74");
    expect(screen.getByTestId("last-good").getAttribute("href")).toBe("/runs/15");
    expect(screen.getByTestId("first-bad").getAttribute("href")).toBe("/runs/16");
  });

  it("says when there is no earlier run, and names runs without commits by number", () => {
    show({ ...step, commit: null, last_good_run_id: null, last_good_commit: null, confirmed_by: "re-runs" });
    expect(screen.getByTestId("commit-range").textContent).toBe("(no earlier run) run #16");
    expect(screen.queryByTestId("last-good")).toBeNull();
    expect(screen.getByTestId("confirmed-by").textContent).toBe("confirmed by re-runs of the same commit");
  });
});
