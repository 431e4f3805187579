import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { Schemas } from "@/api/types";
import { matchesRun, RunPicker } from "@/features/compare/components/RunPicker";

const run = (id: number, commit: string, branch: string): Schemas["RunSummary"] =>
  ({
    id,
    commit,
    branch,
    profile: "quick",
    trigger: "ci",
    testbed: "t1",
    system: "s",
    status: "completed",
    started_at: "2026-11-20T10:00:00Z",
    counts: {},
  }) as unknown as Schemas["RunSummary"];

const runs = [
  run(41, "abc1234def", "main"),
  run(42, "fedcba9876", "feature/x"),
  run(43, "abd0000000", "main"),
];

describe("RunPicker", () => {
  it("matches every word against id, commit, branch and profile", () => {
    expect(matchesRun(runs[0]!, "abc")).toBe(true);
    expect(matchesRun(runs[0]!, "#41")).toBe(true);
    expect(matchesRun(runs[1]!, "feature quick")).toBe(true);
    expect(matchesRun(runs[1]!, "feature main")).toBe(false);
  });

  it("narrows the list as one types and picks the only match", async () => {
    const onChange = vi.fn();
    render(<RunPicker label="Head" runs={runs} value={null} onChange={onChange} />);
    const select = screen.getByLabelText("Head run");
    expect(select.querySelectorAll("option")).toHaveLength(4);
    await userEvent.type(screen.getByLabelText("Search head runs"), "ab");
    expect(select.querySelectorAll("option")).toHaveLength(3);
    expect(onChange).not.toHaveBeenCalled();
    await userEvent.type(screen.getByLabelText("Search head runs"), "d");
    expect(onChange).toHaveBeenCalledWith(43);
  });
});
