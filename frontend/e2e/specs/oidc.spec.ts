// Sign-in with OpenID Connect in Chromium: a local provider (backend/tests/fixtures/oidc_issuer.py)
// and an API of its own configured for it, password sign-in switched off. The provider approves
// its one account at once; the account is in the admin group, so the user is made an admin.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { expect, test } from "../support/fixtures";
import type { Started } from "../support/processes";
import { startGroup } from "../support/processes";
import { freePort, logDir, PYTHON, ROOT, startServer, waitFor, type Server } from "../support/server";

const CLIENT_ID = "benchdash-e2e";
let issuer: Started | undefined;
let server: Server | undefined;

test.describe("sign-in with OpenID Connect", () => {
  test.beforeAll(async () => {
    const secret = randomBytes(12).toString("hex"); // made per run, never committed
    const port = await freePort();
    const issuerUrl = `http://127.0.0.1:${port}`;
    const logFile = path.join(logDir(), "oidc-issuer.log");
    const script = path.join(ROOT, "backend", "tests", "fixtures", "oidc_issuer.py");
    const args = ["--port", String(port), "--client-id", CLIENT_ID, "--client-secret", secret];
    const account = ["--subject", "e2e-0001", "--username", "oidc-ann", "--groups", "bench-admins,staff"];
    issuer = startGroup(PYTHON, [script, ...args, ...account], process.env, logFile);
    await waitFor("OIDC provider", issuer, logFile, async () => {
      return (await fetch(`${issuerUrl}/.well-known/openid-configuration`)).ok;
    });
    server = await startServer({
      database: "benchdash_e2e_oidc",
      dist: path.join(ROOT, "frontend", "dist"),
      admin: { username: "admin", password: randomBytes(12).toString("hex") },
      name: "api-oidc",
      env: {
        BENCHDASH_OIDC_ISSUER: issuerUrl,
        BENCHDASH_OIDC_CLIENT_ID: CLIENT_ID,
        BENCHDASH_OIDC_CLIENT_SECRET: secret,
        BENCHDASH_OIDC_ADMIN_GROUPS: "bench-admins",
        BENCHDASH_OIDC_NAME: "Test IdP",
        BENCHDASH_LOCAL_SIGN_IN: "false",
      },
    });
  });

  test.afterAll(async () => {
    await server?.stop();
    await issuer?.stop();
  });

  test("signs in through the provider; the user is created with the mapped role", async ({ page }) => {
    const base = server!.baseUrl;
    await page.goto(`${base}/sign-in?next=%2Fruns`);
    const button = page.getByRole("link", { name: "Sign in with Test IdP" });
    await expect(button).toBeVisible();
    await expect(page.getByLabel("Password")).toHaveCount(0); // password sign-in is off
    const none = await page.request.get(`${base}/api/v1/auth/me`);
    expect(await none.json()).toBeNull();

    await button.click();
    await expect(page).toHaveURL(`${base}/runs`); // back where the sign-in began
    await expect(page.getByRole("banner").getByText("oidc-ann", { exact: true })).toBeVisible();
    const me = await page.request.get(`${base}/api/v1/auth/me`);
    expect(await me.json()).toEqual({ username: "oidc-ann", is_admin: true });
    const users = await page.request.get(`${base}/api/v1/auth/users`, {
      headers: { "x-benchdash-csrf": "1" },
    });
    expect(users.ok()).toBe(true);
    const created = ((await users.json()) as { username: string; is_admin: boolean }[]).find(
      (u) => u.username === "oidc-ann",
    );
    expect(created).toMatchObject({ username: "oidc-ann", is_admin: true });

    // A password is refused in words, even the admin's.
    const login = await page.request.post(`${base}/api/v1/auth/login`, {
      data: { username: "admin", password: "whatever-it-is" },
      failOnStatusCode: false,
    });
    expect(login.status()).toBe(403);
    expect(((await login.json()) as { detail: string }).detail).toContain("switched off");
  });
});
