import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Layout } from "@/app/Layout";

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [{ element: <Layout />, children: [{ path: "*", element: <p>page body</p> }] }],
    {
      initialEntries: [path],
    },
  );
  return render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("Layout", () => {
  it("shows a banner, not a blank screen, when the API cannot be reached", async () => {
    vi.stubGlobal("fetch", vi.fn().mockRejectedValue(new TypeError("Failed to fetch")));
    renderAt("/");
    expect(await screen.findByTestId("api-down")).toBeTruthy();
    expect(screen.getByText("page body")).toBeTruthy();
  });

  it("shows no banner and offers sign-in when the API answers and nobody is signed in", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async (input: RequestInfo | URL) => {
        const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
        // Signed out, the API answers 200 with a JSON null (GET /api/v1/auth/me → UserRead | null).
        if (url.endsWith("/api/v1/auth/me"))
          return new Response("null", { status: 200, headers: { "content-type": "application/json" } });
        return new Response(JSON.stringify({ status: "ok" }), {
          status: 200,
          headers: { "content-type": "application/json" },
        });
      }),
    );
    renderAt("/alerts");
    const link = await screen.findByRole("link", { name: "Sign in" });
    expect(link.getAttribute("href")).toBe("/sign-in?next=%2Falerts");
    expect(screen.queryByTestId("api-down")).toBeNull();
  });

  it("names the signed-in user and offers sign-out", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async (input: RequestInfo | URL) => {
        const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
        const body = url.endsWith("/api/v1/auth/me")
          ? { username: "ada", is_admin: false }
          : { status: "ok" };
        return new Response(JSON.stringify(body), {
          status: 200,
          headers: { "content-type": "application/json" },
        });
      }),
    );
    renderAt("/alerts");
    expect(await screen.findByRole("button", { name: "Sign out" })).toBeTruthy();
    expect(screen.getByText("ada")).toBeTruthy();
    expect(screen.queryByRole("link", { name: "Sign in" })).toBeNull();
  });
});
