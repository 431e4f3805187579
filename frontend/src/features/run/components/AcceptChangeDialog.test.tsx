import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { measurement } from "@/test/factories";
import { AcceptChangeDialog } from "@/features/run/components/AcceptChangeDialog";

const m = measurement({ benchmark: "encode", metric: "time", params_key: '{"size":64}', stage: "confirmed" });
const run = { id: 16, system: "uvhttp", commit: "4025eefd74aa" };

// The HTTP edge: fetch answers as the API would (the client and the dialog above it are real).
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
  const onAccepted = vi.fn();
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <AcceptChangeDialog run={run} measurement={m} onClose={vi.fn()} onAccepted={onAccepted} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return onAccepted;
}

afterEach(() => vi.unstubAllGlobals());

describe("AcceptChangeDialog", () => {
  it("asks for a note, posts the series' step with the CSRF header, then says it is accepted", async () => {
    const change = {
      id: 3,
      run_id: 16,
      note: "expected: new allocator",
      created_by: "admin",
      created_at: "2026-11-20T10:00:00Z",
    };
    const calls = answer(201, change);
    const onAccepted = show();
    const user = userEvent.setup();
    const submit = screen.getByRole("button", { name: "Accept change" });
    expect(submit).toHaveProperty("disabled", true);
    await user.type(screen.getByLabelText(/^Note/), "  expected: new allocator ");
    await user.click(submit);

    expect(await screen.findByTestId("change-accepted")).toHaveProperty(
      "textContent",
      "Accepted: “expected: new allocator”. The baseline restarts at run #16.",
    );
    expect(calls).toHaveLength(1);
    const request = calls[0]!;
    expect([request.method, new URL(request.url).pathname]).toEqual(["POST", "/api/v1/series/changes"]);
    expect(request.headers.get("x-benchdash-csrf")).toBe("1");
    expect(await request.json()).toEqual({
      system: "uvhttp",
      benchmark: "encode",
      params: '{"size":64}',
      metric: "time",
      run_id: 16,
      note: "expected: new allocator",
    });
    expect(onAccepted).toHaveBeenCalledWith(m.measurement_id, change);
    expect(screen.getByRole("link", { name: "See it on the chart" }).getAttribute("href")).toBe(m.series_url);
  });

  it("says an API refusal in words and keeps the note", async () => {
    answer(403, { title: "Not allowed", status: 403, detail: "this token lacks the trigger scope" });
    const onAccepted = show();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Note/), "new allocator");
    await user.click(screen.getByRole("button", { name: "Accept change" }));
    expect((await screen.findByTestId("accept-error")).textContent).toBe(
      "Could not accept this change: your account is not allowed to (this token lacks the trigger scope).",
    );
    expect(screen.getByLabelText(/^Note/)).toHaveProperty("value", "new allocator");
    expect(onAccepted).not.toHaveBeenCalled();
  });
});
