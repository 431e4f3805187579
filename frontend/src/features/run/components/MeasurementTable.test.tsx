import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { measurement } from "@/test/factories";
import { MeasurementTable } from "@/features/run/components/MeasurementTable";
import type { MeasurementView } from "@/features/run/hooks/measurementView";

const HOSTILE = "<img src=x onerror=alert(1)>";
const rows = [
  measurement({ benchmark: "low_concurrency", level: "ok", change_pct: 0.4 }),
  measurement({
    benchmark: "medium_concurrency",
    level: "fail",
    change_pct: 11.8,
    p_value: 5.3e-20,
    explanation: "11.8 % slower than the median of runs #41–#45 (p = 5.3e-20); fail threshold 10 %.",
  }),
  measurement({
    benchmark: HOSTILE,
    level: "warn",
    change_pct: 6.1,
    explanation: "6.1 % slower than the median of runs #41–#45; warn floor 5 %.",
  }),
];

function Harness() {
  const [view, setView] = useState<MeasurementView>({
    onlyRegressions: false,
    query: "",
    sort: "verdict",
    dir: "desc",
  });
  return (
    <MemoryRouter>
      <MeasurementTable rows={rows} view={view} onView={(patch) => setView((v) => ({ ...v, ...patch }))} />
    </MemoryRouter>
  );
}

const bodyRows = () => screen.getAllByTestId("measurement-row");

describe("MeasurementTable", () => {
  it("shows a verdict badge in words and the explanation sentence per row", () => {
    render(<Harness />);
    const fail = bodyRows()[0]!;
    expect(within(fail).getByText("Fail")).toBeTruthy();
    expect(within(fail).getByTestId("explanation").textContent).toBe(
      "11.8 % slower than the median of runs #41–#45 (p = 5.3e-20); fail threshold 10 %.",
    );
    // The sentence is the API's own (regression/explain.py): the UI never re-words it.
    expect(within(bodyRows()[1]!).getByTestId("explanation").textContent).toBe(
      "6.1 % slower than the median of runs #41–#45; warn floor 5 %.",
    );
  });

  it("filters to regressions only, and by text", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    expect(bodyRows()).toHaveLength(3);
    await user.click(screen.getByLabelText(/Only regressions/));
    expect(bodyRows().map((r) => r.dataset.level)).toEqual(["fail", "warn"]);
    await user.type(screen.getByLabelText("Filter measurements"), "medium");
    expect(bodyRows()).toHaveLength(1);
    await user.clear(screen.getByLabelText("Filter measurements"));
    await user.type(screen.getByLabelText("Filter measurements"), "zzz");
    expect(screen.queryAllByTestId("measurement-row")).toHaveLength(0);
    expect(screen.getByText("No measurement matches")).toBeTruthy();
  });

  it("sorts when a header is clicked, and toggles direction", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole("button", { name: /Change/ }));
    expect(bodyRows().map((r) => r.dataset.level)).toEqual(["fail", "warn", "ok"]);
    await user.click(screen.getByRole("button", { name: /Change/ }));
    expect(bodyRows().map((r) => r.dataset.level)).toEqual(["ok", "warn", "fail"]);
  });

  it("shows samples on expand", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(within(bodyRows()[0]!).getByRole("button", { name: "Show samples" }));
    expect(screen.getByText("5 samples")).toBeTruthy();
  });

  it("renders a hostile benchmark name as text, never as HTML", () => {
    const { container } = render(<Harness />);
    expect(screen.getByText(HOSTILE)).toBeTruthy();
    expect(container.querySelector("img")).toBeNull();
  });
});
