import { render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { runSummary } from "@/test/factories";
import { RerunOf, RerunsPanel } from "@/features/run/components/RerunsPanel";

const show = (node: ReactNode) => render(<MemoryRouter>{node}</MemoryRouter>);

describe("RerunsPanel", () => {
  it("lists the re-runs in order, each with its state and a link to it", () => {
    const second = runSummary({ id: 502, status: "running", rerun_of: 41 });
    const first = runSummary({ id: 501, status: "completed", rerun_of: 41 });
    show(<RerunsPanel reruns={[second, first]} />);
    const items = screen.getAllByTestId("rerun");
    expect(items.map((li) => li.textContent)).toEqual(["re-run 1 of 2: completed", "re-run 2 of 2: running"]);
    expect(screen.getByRole("link", { name: "re-run 2 of 2" }).getAttribute("href")).toBe("/runs/502");
    expect(screen.getByTestId("reruns-state").textContent).toMatch(/^Waiting for 1 re-run;/);
  });

  it("says when every re-run has ended, and shows nothing without re-runs", () => {
    const { unmount } = show(<RerunsPanel reruns={[runSummary({ status: "failed", rerun_of: 41 })]} />);
    expect(screen.getByTestId("reruns-state").textContent).toMatch(/^Every re-run has ended/);
    unmount();
    const { container } = show(<RerunsPanel reruns={[]} />);
    expect(container.textContent).toBe("");
  });

  it("tells a re-run's page which run it re-checks", () => {
    show(<RerunOf runId={41} />);
    expect(screen.getByTestId("rerun-of").textContent).toMatch(/re-checks the suspected changes of run #41/);
    expect(screen.getByRole("link", { name: "run #41" }).getAttribute("href")).toBe("/runs/41");
  });
});
