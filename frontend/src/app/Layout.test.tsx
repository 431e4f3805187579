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
        if (url.endsWith("/api/v1/auth/me"))
          return new Response(
            JSON.stringify({ title: "Unauthorized", status: 401, detail: "not signed in" }),
            {
              status: 401,
              headers: { "content-type": "application/problem+json" },
            },
          );
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
});
