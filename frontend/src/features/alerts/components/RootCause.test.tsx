import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { answerByPath, diff, GROWN } from "@/test/profiles";
import { RootCause, type RootCauseData } from "@/features/alerts/components/RootCause";

const cause: RootCauseData = {
  kind: "instructions",
  unit: "instructions",
  base_profile_id: 8,
  head_profile_id: 9,
  functions: [
    { name: GROWN, self_base: 50_000, self_head: 70_000, delta_self: 20_000, pct_of_base_total: 20 },
    { name: "aes::expand_key", self_base: 1_000, self_head: 1_300, delta_self: 300, pct_of_base_total: 0.3 },
  ],
  summary: `+20.0 % in ${GROWN}, \u22122.0 % elsewhere`,
};

function show() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <RootCause cause={cause} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("RootCause", () => {
  it("says the summary and the functions that grew, most first, without asking the API", () => {
    const asked = answerByPath({});
    show();
    expect(screen.getByTestId("root-cause-summary").textContent).toBe(cause.summary);
    const fns = screen.getAllByTestId("root-cause-function").map((li) => li.textContent);
    expect(fns).toEqual([`${GROWN} +20.0 % (+20k Ir)`, "aes::expand_key +0.3 % (+300 Ir)"]);
    expect(asked).toEqual([]);
  });

  it("shows the differential flame graph of the two profiles on demand, red where it grew", async () => {
    const asked = answerByPath({ "/api/v1/profiles/diff": diff() });
    const { container } = show();
    await userEvent.click(screen.getByRole("button", { name: "Show the differential flame graph" }));
    const rows = await screen.findAllByTestId("diff-function");
    expect(rows.map((r) => [r.querySelector("td")?.textContent, r.dataset.tone])).toEqual([
      [GROWN, "grew"],
      ["relay::frame::parse", "shrank"],
    ]);
    expect(asked.map((u) => u.search)).toEqual(["?base=8&head=9"]);
    expect(screen.getByTestId("flame-legend").textContent).toContain("Red: grew");
    await vi.waitFor(() =>
      expect(container.querySelector(`g.frame[name="${GROWN}"] rect`)?.getAttribute("fill")).toMatch(
        /flame-grew/,
      ),
    );
    expect(container.querySelector('g.frame[name="relay::frame::parse"] rect')?.getAttribute("fill")).toMatch(
      /flame-shrank/,
    );
  });
});
