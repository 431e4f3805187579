import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, useLocation } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { answerByPath, detail, GROWN, summary } from "@/test/profiles";
import { ProfilesPanel } from "@/features/run/components/ProfilesPanel";

function Where() {
  return <output data-testid="where">{useLocation().search}</output>;
}

function show(url = "/runs/5") {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <ProfilesPanel runId={5} />
        <Where />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("ProfilesPanel", () => {
  it("lists the run's profiles and opens one: its flame graph and top functions, kept in the URL", async () => {
    const asked = answerByPath({
      "/api/v1/runs/5/profiles": [summary()],
      "/api/v1/profiles/9": detail(),
    });
    const { container } = show();
    const open = await screen.findByRole("button", { name: "encryption (input=1000) · instructions" });
    expect(screen.getByText(/118k Ir · 3 stacks · explains instructions/)).toBeTruthy();
    await userEvent.click(open);
    expect(screen.getByTestId("where").textContent).toBe("?flame=9");
    const rows = await screen.findAllByTestId("profile-function");
    // Heaviest self cost first, with its share of the total.
    expect(rows.map((r) => r.querySelector("td")?.textContent)).toEqual([
      GROWN,
      "relay::frame::parse",
      "main",
    ]);
    expect(rows[0]!.textContent).toContain("59.3 %");
    await vi.waitFor(() => expect(container.querySelector(`g.frame[name="${GROWN}"]`)).not.toBeNull());
    expect(asked.map((u) => u.pathname + u.search)).toContain("/api/v1/profiles/9?format=json");
    expect(open.getAttribute("aria-pressed")).toBe("true");
  });

  it("opens the profile the URL names", async () => {
    answerByPath({ "/api/v1/runs/5/profiles": [summary()], "/api/v1/profiles/9": detail() });
    show("/runs/5?flame=9");
    expect(await screen.findByTestId("profile-view")).toBeTruthy();
  });

  it("shows nothing for a run without profiles", async () => {
    const asked = answerByPath({ "/api/v1/runs/5/profiles": [] });
    const { container } = show();
    await vi.waitFor(() => expect(asked).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50)); // the answer is handled
    expect(container.querySelector('[data-testid="run-profiles"]')).toBeNull();
  });
});
