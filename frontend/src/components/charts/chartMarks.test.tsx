import { render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { markShape } from "@/components/charts/MarkLines";
import { placeMarks } from "@/components/charts/marks";
import { trendDot } from "@/components/charts/TrendDot";
import type { TrendDatum } from "@/components/charts/trendData";
import { VerdictLegend } from "@/components/charts/VerdictLegend";
import { color } from "@/lib/tokens";

const datum = (extra: Partial<TrendDatum>): TrendDatum => ({
  run_id: 16,
  commit: "4025eefd74",
  t: "2026-11-20T10:00:00Z",
  value: 1128,
  min: 1126,
  max: 1130,
  stddev: 1.5,
  n: 5,
  level: "fail",
  stage: null,
  baseline: 1000,
  change_pct: 12.8,
  p_value: 1e-6,
  x: 0,
  range: null,
  warnBand: null,
  failBand: null,
  ...extra,
});

function dot(extra: Partial<TrendDatum>) {
  const Dot = trendDot({ unit: "ns", showOk: true, onPointClick: vi.fn() });
  const { container } = render(
    <svg>
      <Dot cx={10} cy={10} index={0} payload={datum(extra)} />
    </svg>,
  );
  const marker = within(container).getByTestId("point-marker");
  return { marker, shape: marker.querySelector("path")!, title: marker.querySelector("title")!.textContent };
}

describe("trend markers by stage", () => {
  it("draws a suspected point as an outline of its level's shape, and says so", () => {
    const { marker, shape, title } = dot({ stage: "suspected" });
    expect(marker.dataset.stage).toBe("suspected");
    expect(shape.getAttribute("fill")).toBe(color.surface);
    expect(shape.getAttribute("stroke")).toBe(color.fail);
    expect(title).toBe("Fail, suspected: run #16 1.128 µs");
  });

  it("fills a confirmed point, and greys out a dismissed one", () => {
    expect(dot({ stage: "confirmed" }).shape.getAttribute("fill")).toBe(color.fail);
    const dismissed = dot({ stage: "dismissed" });
    expect(dismissed.shape.getAttribute("fill")).toBe(color.surface);
    expect(dismissed.shape.getAttribute("stroke")).toBe(color.muted);
    expect(dismissed.title).toMatch(/^Fail, dismissed:/);
  });

  it("keeps unstaged points as before: filled, named by level only", () => {
    const { marker, shape, title } = dot({});
    expect(marker.dataset.stage).toBeUndefined();
    expect(shape.getAttribute("fill")).toBe(color.fail);
    expect(title).toBe("Fail: run #16 1.128 µs");
  });
});

describe("step and change marks", () => {
  const data = [{ run_id: 16, x: 0 }];
  const [step, change] = placeMarks(
    data,
    [
      {
        alert_id: 1,
        run_id: 16,
        level: "fail",
        status: "open",
        change_pct: 12.8,
        confirmed_by: null,
        commit: null,
      },
    ],
    [{ id: 2, run_id: 16, note: "expected: new allocator", created_by: "admin" }],
  );

  it("draws a step as a solid labelled line at the run", () => {
    const Shape = markShape(step!);
    render(<svg>{Shape({ x1: 40, y1: 8, x2: 40, y2: 200 })}</svg>);
    const g = screen.getByTestId("step-marker");
    expect(g.dataset.run).toBe("16");
    expect(g.querySelector("line")!.getAttribute("stroke-dasharray")).toBeNull();
    expect(g.querySelector("text")!.textContent).toBe("Fail step +12.8 % · worse");
  });

  it("draws an accepted change dashed, labelled with its note", () => {
    const Shape = markShape(change!);
    render(<svg>{Shape({ x1: 40, y1: 8, x2: 40, y2: 200 })}</svg>);
    const g = screen.getByTestId("change-marker");
    expect(g.querySelector("line")!.getAttribute("stroke-dasharray")).toBe("6 4");
    expect(g.querySelector("text")!.textContent).toBe("expected: new allocator");
  });
});

describe("VerdictLegend", () => {
  it("says in words what outlines, steps and changes mean", () => {
    render(<VerdictLegend />);
    const legend = screen.getByRole("list", { name: "Chart legend" });
    for (const words of [
      "Outline: suspected, not yet confirmed",
      "Grey outline: dismissed by re-runs",
      "Confirmed step (first bad run)",
      "Accepted change",
    ])
      expect(legend.textContent).toContain(words);
  });
});
