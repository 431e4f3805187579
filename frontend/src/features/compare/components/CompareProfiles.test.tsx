import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { answerByPath, diff, GROWN, summary } from "@/test/profiles";
import { CompareProfiles } from "@/features/compare/components/CompareProfiles";

function show(url = "/compare") {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <CompareProfiles base={4} head={5} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("CompareProfiles", () => {
  it("offers the benchmarks both runs profiled and shows the first one's differential flame graph", async () => {
    const asked = answerByPath({
      "/api/v1/runs/4/profiles": [
        summary({ id: 8, run_id: 4 }),
        summary({ id: 7, run_id: 4, benchmark_id: 6 }),
      ],
      "/api/v1/runs/5/profiles": [summary(), summary({ id: 10, benchmark_id: 11, benchmark: "other" })],
      "/api/v1/profiles/diff": diff(),
    });
    show();
    const picker = (await screen.findByLabelText("Profile")) as HTMLSelectElement;
    expect([...picker.options].map((o) => o.textContent)).toEqual(["encryption (input=1000) · instructions"]);
    expect(picker.value).toBe("3:instructions");
    expect((await screen.findAllByTestId("diff-function"))[0]!.textContent).toContain(GROWN);
    const diffAsked = asked.find((u) => u.pathname === "/api/v1/profiles/diff");
    expect(Object.fromEntries(diffAsked!.searchParams)).toEqual({
      base_run: "4",
      head_run: "5",
      benchmark_id: "3",
      kind: "instructions",
    });
  });

  it("shows nothing when the runs share no profiled benchmark", async () => {
    const asked = answerByPath({
      "/api/v1/runs/4/profiles": [summary({ id: 8, run_id: 4, benchmark_id: 6 })],
      "/api/v1/runs/5/profiles": [summary()],
    });
    const { container } = show();
    await vi.waitFor(() => expect(asked).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 50)); // the answers are handled
    expect(container.querySelector('[data-testid="compare-profiles"]')).toBeNull();
    expect(asked.some((u) => u.pathname === "/api/v1/profiles/diff")).toBe(false);
  });
});
