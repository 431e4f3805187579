import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import type { Schemas } from "@/api/types";
import { AlertItem } from "@/features/alerts/components/AlertItem";

const step: Schemas["AlertRead"] = {
  id: 7,
  status: "open",
  system: "uvhttp",
  benchmark: "hello",
  parameters: {},
  params_key: "{}",
  metric: "rps",
  unit: "req/s",
  direction: "higher_is_better",
  branch: "main",
  testbed: "ci",
  run_id: 40,
  commit: "4025eefd74aa0c",
  last_good_run_id: 39,
  last_good_commit: "ba36ba4823ff01",
  level: "warn",
  kind: "step",
  confirmed_by: "persistence",
  change_pct: 6.2,
  p_value: null,
  explanation: "A step.",
  series_url: "/systems/uvhttp",
  opened_at: "2026-11-26T01:00:00Z",
  acknowledged_at: null,
  acknowledged_by: null,
  resolved_at: null,
};

const show = (a: Schemas["AlertRead"]) =>
  render(
    // The item's bisections panel reads through TanStack Query (closed, it fetches nothing).
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <AlertItem alert={a} signedIn={false} pending={false} onAcknowledge={() => undefined} />
      </MemoryRouter>
    </QueryClientProvider>,
  );

describe("AlertItem", () => {
  it("marks a drift alert with a drift badge and names its window", () => {
    show({ ...step, kind: "drift", confirmed_by: "drift", window_runs: 61 });
    expect(screen.getByTestId("alert").getAttribute("data-kind")).toBe("drift");
    expect(screen.getByTestId("alert-drift").textContent).toBe("drift");
    expect(screen.getByTestId("alert").textContent).toContain("drift over 61 runs from run #40");
  });

  it("shows a step alert without the badge", () => {
    show(step);
    expect(screen.queryByTestId("alert-drift")).toBeNull();
    expect(screen.getByTestId("alert").textContent).toContain("first bad run #40");
  });
});
