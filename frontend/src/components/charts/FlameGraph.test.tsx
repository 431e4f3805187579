import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { diffFill, FlameGraph } from "@/components/charts/FlameGraph";
import type { FlameDatum } from "@/lib/profiles";
import { flameColor } from "@/lib/tokens";

const data = (): FlameDatum => ({
  name: "all",
  value: 100,
  delta: 10,
  base: 90,
  children: [
    {
      name: "main",
      value: 100,
      delta: 10,
      base: 90,
      children: [
        { name: "encrypt", value: 70, delta: 20, base: 50, children: [] },
        { name: "parse", value: 30, delta: -10, base: 40, children: [] },
      ],
    },
  ],
});

const frames = (el: HTMLElement) =>
  [...el.querySelectorAll("svg g.frame")].map((g) => [
    g.getAttribute("name"),
    g.querySelector("rect")?.getAttribute("fill"),
  ]);

describe("FlameGraph", () => {
  it("draws a frame per call path with its name, and removes its SVG on unmount", () => {
    const { container, unmount } = render(
      <FlameGraph data={data()} unit="instructions" label="Flame graph" />,
    );
    const figure = container.querySelector('[role="figure"]') as HTMLElement;
    expect(figure.getAttribute("aria-label")).toBe("Flame graph");
    expect(frames(figure).map(([name]) => name)).toEqual(["all", "main", "encrypt", "parse"]);
    expect(figure.querySelector("g.frame[name=encrypt] title")?.textContent).toBe(
      "encrypt: 70 Ir (70 %), +20 Ir (+40.0 %) against the base",
    );
    // Not differential: the library's own palette, none of the diff tokens.
    expect(frames(figure).some(([, fill]) => fill?.includes("--flame"))).toBe(false);
    unmount();
    expect(figure.querySelector("svg")).toBeNull();
  });

  it("colours a differential graph's frames by tone: red grew, blue shrank", () => {
    const { container } = render(
      <FlameGraph data={data()} unit="instructions" label="Differential flame graph" differential />,
    );
    const fills = Object.fromEntries(frames(container));
    expect(fills.encrypt).toBe(flameColor.grew[2]); // +20 on 70: 29 % of its cost, strength 3
    expect(fills.parse).toBe(flameColor.shrank[2]); // −10 of 40: 25 %, strength 3
    expect(fills.main).toBe(flameColor.grew[1]); // +10 on 100: strength 2
  });

  it("redraws (one SVG, new frames) when its data changes", () => {
    const { container, rerender } = render(<FlameGraph data={data()} unit="samples" label="g" />);
    rerender(
      <FlameGraph
        data={{ name: "all", value: 5, children: [{ name: "other", value: 5, children: [] }] }}
        unit="samples"
        label="g"
      />,
    );
    expect(container.querySelectorAll("svg")).toHaveLength(1);
    expect(frames(container).map(([name]) => name)).toEqual(["all", "other"]);
  });

  it("fills an unchanged frame grey", () => {
    expect(diffFill({ name: "f", value: 1000, delta: 1, base: 999, children: [] })).toBe(flameColor.same);
  });
});
