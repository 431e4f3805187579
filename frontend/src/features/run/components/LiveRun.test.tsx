import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { LiveRun } from "@/features/run/components/LiveRun";
import type { LiveState } from "@/features/run/hooks/useRunEvents";
import { SessionContext, type SignedInUser } from "@/lib/session";

function renderLive(live: Partial<LiveState>, user: SignedInUser | null = null) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const state: LiveState = {
    status: null,
    message: null,
    progress: null,
    lines: [],
    ended: false,
    connected: true,
    ...live,
  };
  return render(
    <QueryClientProvider client={client}>
      <SessionContext value={user}>
        <LiveRun runId={7} live={state} />
      </SessionContext>
    </QueryClientProvider>,
  );
}

describe("LiveRun", () => {
  it("shows the scenario, percent and ETA of a running run", () => {
    renderLive({
      status: "running",
      progress: { done: 1, total: 4, scenario: "cloud", percent: 25, eta_s: 90 },
      lines: ["go build ./...", "<b>not html</b>"],
    });
    expect(screen.getByRole("progressbar", { name: "Progress" }).getAttribute("aria-valuenow")).toBe("25");
    expect(screen.getByText("scenario 2 of 4: cloud")).toBeTruthy();
    expect(screen.getByText("about 2 min left")).toBeTruthy();
    expect(screen.getByLabelText("Log").textContent).toContain("<b>not html</b>");
    expect(screen.queryByRole("button", { name: "Cancel" })).toBeNull();
  });

  it("is full and says why when the run has ended", () => {
    renderLive({
      status: "completed",
      progress: { done: 3, total: 3, scenario: null, percent: 100, eta_s: 0 },
    });
    expect(screen.getByRole("progressbar", { name: "Progress" }).getAttribute("aria-valuenow")).toBe("100");
    renderLive({ status: "failed", message: "the build failed; see the log" });
    expect(screen.getByText("the build failed; see the log")).toBeTruthy();
  });

  it("offers Cancel to a signed-in user while the run is active, and only then", () => {
    const admin = { username: "admin", is_admin: true };
    renderLive({ status: "running" }, admin);
    expect(screen.getByRole("button", { name: "Cancel" })).toBeTruthy();
    cleanup();
    renderLive({ status: "completed" }, admin);
    expect(screen.queryByRole("button", { name: "Cancel" })).toBeNull();
  });
});
