import { expect, test } from "../support/fixtures";

test.describe("sign-in", () => {
  test("a wrong password is refused in words; the right one returns to the page asked for", async ({
    page,
    admin,
  }) => {
    await page.goto("/runs");
    await page.getByRole("link", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fruns$/);
    await page.getByLabel("User name").fill(admin.username);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert")).toHaveText("Wrong user name or password.");

    await page.getByLabel("Password").fill(admin.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/runs$/);
    await expect(page.getByRole("banner").getByText(admin.username, { exact: true })).toBeVisible();
    const me = await page.request.get("/api/v1/auth/me");
    expect(await me.json()).toMatchObject({ username: admin.username });

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
    expect(await (await page.request.get("/api/v1/auth/me")).json()).toBeNull();
  });

  test("never follows a next= to another site", async ({ page, admin, baseURL }) => {
    await page.goto("/sign-in?next=%2F%2Fexample.com%2F");
    await page.getByLabel("User name").fill(admin.username);
    await page.getByLabel("Password").fill(admin.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
    expect(page.url()).toBe(`${baseURL}/`);
  });
});
