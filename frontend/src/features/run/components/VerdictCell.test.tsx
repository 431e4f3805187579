import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { measurement } from "@/test/factories";
import { VerdictCell } from "@/features/run/components/VerdictCell";
import type { Measurement } from "@/features/run/hooks/measurementView";

function cell(m: Measurement, props: { onAccept?: (m: Measurement) => void; accepted?: string } = {}) {
  return render(
    <table>
      <tbody>
        <tr>
          <VerdictCell m={m} {...props} />
        </tr>
      </tbody>
    </table>,
  );
}

describe("VerdictCell", () => {
  it("shows the stage beside the verdict, and the floors under the sentence", () => {
    cell(measurement({ level: "fail", stage: "suspected", floor_warn: 16.2, variation: 8.1 }));
    expect(screen.getByText("Fail")).toBeTruthy();
    expect(screen.getByText("Suspected").dataset.stage).toBe("suspected");
    expect(screen.getByTestId("floors").textContent).toBe("floor 16.2 % · noise 8.1 %");
    expect(screen.getByTestId("floors").title).toMatch(/raised above the configured 5 % \/ 10 %/);
    expect(screen.queryByTestId("stage-note")).toBeNull();
  });

  it("says why nothing was judged instead of floors", () => {
    cell(measurement({ level: "no_baseline", reason: "too little history (4 of 10 runs)" }));
    expect(screen.getByTestId("not-judged").textContent).toBe(
      "Not judged: too little history (4 of 10 runs)",
    );
    expect(screen.queryByTestId("floors")).toBeNull();
  });

  it("says a later confirmation or dismissal, which the stored sentence predates", () => {
    cell(measurement({ level: "fail", stage: "dismissed" }));
    expect(screen.getByTestId("stage-note").textContent).toBe(
      "Dismissed: its re-runs did not confirm the change: treated as noise.",
    );
  });

  it("offers 'Accept as expected change…' only when asked to, and only on a change", async () => {
    const onAccept = vi.fn();
    const fail = measurement({ level: "fail", stage: "confirmed" });
    const { unmount } = cell(fail, { onAccept });
    await userEvent.setup().click(screen.getByRole("button", { name: "Accept as expected change…" }));
    expect(onAccept).toHaveBeenCalledWith(fail);
    unmount();
    const { unmount: again } = cell(measurement({ level: "ok" }), { onAccept });
    expect(screen.queryByRole("button", { name: /Accept/ })).toBeNull();
    again();
    cell(fail);
    expect(screen.queryByRole("button", { name: /Accept/ })).toBeNull();
  });

  it("shows a change accepted during this visit instead of the button", () => {
    cell(measurement({ level: "fail", stage: "confirmed" }), {
      onAccept: vi.fn(),
      accepted: "new allocator",
    });
    expect(screen.getByTestId("accepted-note").textContent).toBe("Accepted as expected: “new allocator”");
    expect(screen.queryByRole("button", { name: /Accept/ })).toBeNull();
  });
});
