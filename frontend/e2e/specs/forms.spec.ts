// Forms say what is wrong beside the field, in words (not pydantic's text under "Something went
// wrong"), and forget it once the field changes; the token name's limit is in the form; systems
// split on commas; destructive actions ask first (tokens, agent tokens included, and users).
import { uniqueSlug } from "../support/bench";
import { expect, test } from "../support/fixtures";

test.describe("forms", () => {
  test("a token's systems split on commas; a bad one is named beside its field, then cleared", async ({
    page,
    signIn,
  }) => {
    await signIn("/admin?tab=tokens");
    const tokens = page.getByTestId("admin-tokens");
    const name = tokens.getByLabel("Name");
    await name.fill("x".repeat(130));
    await expect(name).toHaveValue("x".repeat(120)); // the API's limit, in the form
    await expect(tokens).toContainText("at most 120 characters");
    await name.fill(uniqueSlug("forms"));
    const systems = tokens.getByLabel(/^Systems/);
    await systems.fill("cachex relay"); // a space is not a separator: one slug, and not a valid one
    await tokens.getByRole("button", { name: "Create token" }).click();
    const error = tokens.getByTestId("field-error");
    await expect(error).toHaveText(/“cachex relay” is not a system slug: .*separate systems with commas/);
    await expect(systems).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByTestId("token-created")).toHaveCount(0);
    await expect(page.locator("body")).not.toContainText("String should match pattern");
    await expect(page.locator("body")).not.toContainText("Something went wrong");
    await systems.fill("cachex, relay");
    await expect(error).toHaveCount(0); // forgotten once the field changes
    await tokens.getByRole("button", { name: "Create token" }).click();
    await expect(page.getByTestId("token-created")).toBeVisible();
    const secret = (await page.getByTestId("token-secret").textContent())!.trim();
    const row = page.locator(`[data-testid="token-row"][data-prefix="${secret.split("_")[1]}"]`);
    await expect(row).toContainText("cachex, relay");
  });

  test("revoking an agent token asks first and says its runners stop", async ({ page, signIn }) => {
    await signIn("/admin?tab=tokens");
    const tokens = page.getByTestId("admin-tokens");
    await tokens.getByLabel("Name").fill(uniqueSlug("agent"));
    await tokens.getByRole("checkbox", { name: "upload" }).uncheck();
    await tokens.getByRole("checkbox", { name: "agent" }).check();
    await tokens.getByRole("button", { name: "Create token" }).click();
    const secret = (await page.getByTestId("token-secret").textContent())!.trim();
    const row = page.locator(`[data-testid="token-row"][data-prefix="${secret.split("_")[1]}"]`);
    await row.getByRole("button", { name: "Revoke" }).click();
    const dialog = page.getByRole("dialog", { name: /^Revoke token/ });
    await expect(dialog).toContainText("runner agents");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toHaveAttribute("data-revoked", "false");
    await expect(row).toContainText("active");
  });

  test("a user name the API refuses is explained beside the field, then cleared", async ({
    page,
    signIn,
  }) => {
    await signIn("/admin?tab=users");
    const users = page.getByTestId("admin-users");
    await users.getByLabel("User name").fill("bad name");
    await users.getByLabel("Password (12+ characters)").fill("a-long-password-1");
    await users.getByRole("button", { name: "Create user" }).click();
    const error = users.getByTestId("field-error");
    await expect(error).toHaveText(/^Start with a letter or digit, then use letters, digits/);
    await expect(page.locator("body")).not.toContainText("String should match pattern");
    await expect(page.locator("body")).not.toContainText("Something went wrong");
    await users.getByLabel("User name").fill("good-name");
    await expect(error).toHaveCount(0);
  });
});
