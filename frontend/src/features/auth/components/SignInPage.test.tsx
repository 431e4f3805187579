import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SignInPage } from "@/features/auth/components/SignInPage";

/** The sign-in page against an API whose GET /api/v1/auth/config answers `config`. */
function renderWith(config: unknown) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL) => {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      const body = url.endsWith("/api/v1/auth/config") ? config : null;
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { "content-type": "application/json" },
      });
    }),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: "*", element: <SignInPage next="/runs" /> }], {
    initialEntries: ["/sign-in"],
  });
  return render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("SignInPage", () => {
  it("offers only the password form when no provider is configured", async () => {
    renderWith({ local: true, oidc: null });
    expect(await screen.findByLabelText("Password")).toBeTruthy();
    await new Promise((r) => setTimeout(r, 0));
    expect(screen.queryByRole("link", { name: /Sign in with/ })).toBeNull();
  });

  it("offers the provider and the password form when both are on", async () => {
    renderWith({ local: true, oidc: { name: "Keycloak", login_url: "/api/v1/auth/oidc/login" } });
    const link = await screen.findByRole("link", { name: "Sign in with Keycloak" });
    expect(link.getAttribute("href")).toBe("/api/v1/auth/oidc/login?next=%2Fruns");
    expect(screen.getByLabelText("Password")).toBeTruthy();
    expect(screen.getByText("or with a password")).toBeTruthy();
  });

  it("hides the password form when password sign-in is switched off", async () => {
    renderWith({ local: false, oidc: { name: "Keycloak", login_url: "/api/v1/auth/oidc/login" } });
    expect(await screen.findByRole("link", { name: "Sign in with Keycloak" })).toBeTruthy();
    expect(screen.queryByLabelText("Password")).toBeNull();
    expect(screen.queryByRole("button", { name: "Sign in" })).toBeNull();
  });
});
