// A system's source in the admin pages (issue 37): a new system from a repository URL, then its
// branches, poll period and webhook secret set in the Source tab, kept across a reload (the
// secret only as "set"); a URL agents cannot clone is refused with the server's words.
import { uniqueSlug } from "../support/bench";
import { expect, test } from "../support/fixtures";

test.describe("admin source", () => {
  test("a new system from its URL, its source edited and kept", async ({ page, signIn }) => {
    const slug = uniqueSlug("src");
    await signIn("/admin?tab=source");
    const form = page.getByTestId("admin-new-system");
    await form.getByLabel("Slug").fill(slug);
    await form.getByLabel("Repository URL").fill("ftp://example.org/project.git");
    await form.getByRole("button", { name: "Create system" }).click();
    await expect(form).toContainText("ftp");
    expect((await page.request.get(`/api/v1/systems/${slug}`)).status()).toBe(404); // nothing made
    await form.getByLabel("Repository URL").fill("https://git.example.org/team/project.git");
    await form.getByRole("button", { name: "Create system" }).click();
    await expect(page).toHaveURL(new RegExp(`system=${slug}`));
    const source = page.getByTestId("admin-source");
    await expect(source.getByLabel(/Repository URL/)).toHaveValue("https://git.example.org/team/project.git");
    await expect(source.getByLabel(/Default branch/)).toHaveValue("main");
    await expect(source.getByLabel(/Webhook secret/)).toBeVisible();
    await expect(source).toContainText("not set");
    await source.getByLabel(/Followed branches/).fill("release/1.x, next");
    await source.getByLabel(/Poll every/).fill("5");
    await source.getByLabel(/Webhook secret/).fill("a-webhook-secret-0123456789");
    await source.getByRole("button", { name: "Save source" }).click();
    await expect(source).toContainText("set: empty keeps it");
    await page.reload();
    await expect(source.getByLabel(/Followed branches/)).toHaveValue("next, release/1.x");
    await expect(source.getByLabel(/Poll every/)).toHaveValue("5");
    await expect(source.getByLabel(/Webhook secret/)).toHaveValue("");
    await expect(page.locator("body")).not.toContainText("a-webhook-secret-0123456789");
    const stored = await page.request.get(`/api/v1/systems/${slug}/source`);
    expect(await stored.json()).toMatchObject({
      poll_interval_s: 300,
      followed_branches: ["next", "release/1.x"],
      hook_secret_set: true,
    });
    await source.getByLabel(/Poll every/).fill("0.5"); // 30 s: under the least period
    await source.getByRole("button", { name: "Save source" }).click();
    await expect(source).toContainText("60");
    await page.reload();
    await expect(source.getByLabel(/Poll every/)).toHaveValue("5");
  });
});
