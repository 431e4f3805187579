import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SubscriptionForm } from "@/features/notifications/components/SubscriptionForm";

// The HTTP edge: fetch answers as the API would (the client and the form above it are real).
function answer(status: number, body: unknown) {
  const calls: Request[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      calls.push(request.clone());
      const type = status < 300 ? "application/json" : "application/problem+json";
      return new Response(JSON.stringify(body), { status, headers: { "content-type": type } });
    }),
  );
  return calls;
}

function show() {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <SubscriptionForm systems={["uvhttp", "relay"]} />
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("SubscriptionForm", () => {
  it("posts a webhook subscription with the CSRF header and shows its secret once", async () => {
    const created = {
      id: 4,
      system: "relay",
      branch: null,
      channel: "webhook",
      name: "perf hook",
      target: "https://ci.test/hook",
      events: ["alert.opened", "run.failed"],
      created_by: "admin",
      created_at: "2026-11-26T01:00:00Z",
      secret: "whsec_abc",
    };
    const calls = answer(201, created);
    show();
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText("System"), "relay");
    await user.type(screen.getByLabelText("Name"), "perf hook");
    await user.type(screen.getByLabelText("Webhook URL"), "https://ci.test/hook");
    await user.click(screen.getByLabelText("Its recovery"));
    await user.click(screen.getByRole("button", { name: "Add subscription" }));

    expect((await screen.findByTestId("signing-secret")).textContent).toContain("whsec_abc");
    expect(calls).toHaveLength(1);
    expect(calls[0]!.headers.get("x-benchdash-csrf")).toBe("1");
    expect(await calls[0]!.json()).toEqual({
      system: "relay",
      channel: "webhook",
      name: "perf hook",
      target: "https://ci.test/hook",
      branch: null,
      events: ["alert.opened", "alert.bisected", "alert.regraded", "run.failed"],
    });
  });

  it("asks an e-mail channel for an address and shows the API's refusal", async () => {
    answer(422, {
      title: "Invalid input",
      detail: "target: an e-mail channel needs an address",
      status: 422,
    });
    show();
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText("Channel"), "email");
    await user.type(screen.getByLabelText("Name"), "team");
    await user.type(screen.getByLabelText("E-mail address"), "team@x");
    await user.click(screen.getByRole("button", { name: "Add subscription" }));
    expect(await screen.findByText(/needs an address/)).toBeTruthy();
    expect(screen.queryByTestId("signing-secret")).toBeNull();
  });
});
