// Admin pages (issue 25): tokens (created and shown once, listed by prefix, revoked), users
// (created, disabled: they cannot sign in), per-metric thresholds with who and when, the
// registered manifest and the repository URL. Admins only.
import { uniqueSlug } from "../support/bench";
import { expect, test } from "../support/fixtures";

test.describe("admin", () => {
  test("signed out there is no Admin link and the page asks for an admin", async ({ page }) => {
    await page.goto("/admin");
    await expect(page.getByText("Admins only")).toBeVisible();
    await expect(page.getByRole("link", { name: "Admin", exact: true })).toHaveCount(0);
  });

  test("tokens: created and shown once, listed by prefix, revoked", async ({ page, signIn, baseURL }) => {
    await signIn("/admin?tab=tokens");
    await expect(page.getByRole("link", { name: "Admin", exact: true })).toBeVisible();
    const name = uniqueSlug("token");
    await page.getByLabel("Name").fill(name);
    await page.getByRole("checkbox", { name: "trigger" }).check();
    await page.getByRole("button", { name: "Create token" }).click();
    const secret = (await page.getByTestId("token-secret").textContent())!.trim();
    expect(secret).toMatch(/^bd_[0-9a-f]{12}_/);
    const prefix = secret.split("_")[1]!;
    const row = page.locator(`[data-testid="token-row"][data-prefix="${prefix}"]`);
    await expect(row).toContainText("trigger, upload");
    await expect(row).toContainText("every system");
    // The token works; after a reload its text is nowhere on the page.
    const ok = await fetch(`${baseURL}/api/v1/runs?limit=1`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(ok.status).toBe(200);
    await page.reload();
    await expect(page.getByTestId("token-secret")).toHaveCount(0);
    await expect(page.locator("body")).not.toContainText(secret);
    await row.getByRole("button", { name: "Revoke" }).click();
    const confirm = page.getByRole("dialog", { name: /^Revoke token/ });
    await expect(confirm).toBeVisible(); // nothing happens in one click
    await expect(row).toHaveAttribute("data-revoked", "false");
    await confirm.getByRole("button", { name: "Revoke" }).click();
    await expect(row).toHaveAttribute("data-revoked", "true");
    await expect(row).toContainText("revoked");
  });

  test("users: created, then disabled cannot sign in", async ({ page, signIn, browser, baseURL }) => {
    await signIn("/admin?tab=users");
    const username = uniqueSlug("user");
    await page.getByLabel("User name").fill(username);
    await page.getByLabel("Password (12+ characters)").fill("a-long-password-1");
    await page.getByRole("button", { name: "Create user" }).click();
    const row = page.locator(`[data-testid="user-row"][data-user="${username}"]`);
    await expect(row).toContainText("member");
    await row.getByRole("button", { name: "Disable" }).click();
    await expect(row).toHaveAttribute("data-disabled", "false"); // asked first
    await page
      .getByRole("dialog", { name: `Disable user ${username}?` })
      .getByRole("button", { name: "Disable" })
      .click();
    await expect(row).toHaveAttribute("data-disabled", "true");

    const other = await browser.newContext({ baseURL });
    const login = await other.request.post("/api/v1/auth/login", {
      data: { username, password: "a-long-password-1" },
    });
    expect(login.status()).toBe(401);
    expect(await login.text()).toContain("disabled");
    await other.close();
  });

  test("thresholds with who and when, the manifest and the repository URL", async ({
    page,
    signIn,
    bench,
  }) => {
    const slug = uniqueSlug("admin");
    await bench.registerManifest(slug, {
      name: slug,
      metrics: [
        { name: "hit_rate", unit: "%", direction: "higher_is_better", warn: 5, fail: 10 },
        { name: "qps", unit: "req/s", direction: "higher_is_better", warn: 5, fail: 10, min: 0 },
      ],
    });
    await signIn(`/admin?tab=thresholds&system=${slug}`);
    const row = page.locator('[data-testid="threshold-row"][data-metric="qps"]');
    await expect(row.getByLabel("min of qps")).toHaveValue("0");
    await expect(row.getByLabel("max of qps")).toHaveValue(""); // unbounded
    const hitRate = page.locator('[data-testid="threshold-row"][data-metric="hit_rate"]');
    await expect(hitRate.getByLabel("max of hit_rate")).toHaveValue("100"); // a % unit: 0–100
    await row.getByLabel("warn % of qps").fill("3");
    await row.getByLabel("fail % of qps").fill("2");
    await expect(row.getByRole("button", { name: "Save", exact: true })).toBeDisabled(); // fail below warn
    await row.getByLabel("fail % of qps").fill("7");
    await row.getByRole("button", { name: "Save", exact: true }).click();
    await expect(row.getByTestId("threshold-audit")).toContainText("user:");
    await expect(row.getByLabel("warn % of qps")).toHaveValue("3");
    const metrics = await page.request.get(`/api/v1/systems/${slug}/metrics`);
    const qps = (
      (await metrics.json()) as { name: string; warn_threshold: number; fail_threshold: number }[]
    ).find((m) => m.name === "qps");
    expect(qps).toMatchObject({ warn_threshold: 3, fail_threshold: 7 });

    await page.getByRole("tab", { name: "Manifest" }).click();
    await expect(page.getByTestId("manifest-json")).toContainText('"hit_rate"');
    await page.getByLabel(/Repository URL/).fill("https://github.com/acme/widget");
    await page.getByRole("button", { name: "Save repository" }).click();
    await expect(page.getByRole("button", { name: "Save repository" })).toBeDisabled();
    await page.reload();
    await expect(page.getByLabel(/Repository URL/)).toHaveValue("https://github.com/acme/widget");
  });
});
