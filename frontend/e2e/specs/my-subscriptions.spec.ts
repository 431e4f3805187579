// Personal subscriptions (issue 26): a signed-in member subscribes themselves by e-mail to a
// system's events from the notifications page and sees and removes only their own; an admin
// sees everyone's.
import { history, uniqueSlug } from "../support/bench";
import { expect, test } from "../support/fixtures";

test("a member subscribes themselves, sees only their own and removes it; an admin sees all", async ({
  page,
  bench,
  signIn,
  browser,
  baseURL,
}) => {
  const slug = uniqueSlug("mine");
  await bench.seedRuns(slug, [
    {
      benchmark: "get",
      metric: "throughput",
      unit: "req/s",
      direction: "higher_is_better",
      values: history(2, 100),
    },
  ]);
  await signIn("/notifications");
  const csrf = { "x-benchdash-csrf": "1" };
  const team = await page.request.post("/api/v1/notifications/subscriptions", {
    data: { system: slug, name: "team list", channel: "email", target: "team@example.com" },
    headers: csrf,
  });
  expect(team.status(), await team.text()).toBe(201);
  const username = uniqueSlug("member");
  const created = await page.request.post("/api/v1/auth/users", {
    data: { username, password: "a-long-password-1" },
    headers: csrf,
  });
  expect(created.status(), await created.text()).toBe(201);

  const member = await browser.newContext({ baseURL });
  const mine = await member.newPage();
  await mine.goto(`/sign-in?next=${encodeURIComponent("/notifications")}`);
  await mine.getByLabel("User name").fill(username);
  await mine.getByLabel("Password").fill("a-long-password-1");
  await mine.getByRole("button", { name: "Sign in" }).click();
  await mine.waitForURL("**/notifications");
  await expect(mine.getByRole("form", { name: "Add a subscription" })).toHaveCount(0); // admins only
  await expect(mine.getByTestId("subscriptions")).toContainText("No subscriptions yet"); // not the team's
  const form = mine.getByRole("form", { name: "Subscribe me" });
  await form.getByLabel("System").selectOption(slug);
  await form.getByLabel("Your e-mail address").fill("me@example.com");
  await form.getByLabel("A failed run").uncheck();
  await form.getByRole("button", { name: "Subscribe me" }).click();
  const item = mine.locator("[data-testid^=subscription-]");
  await expect(item).toHaveCount(1);
  await expect(item).toContainText("yours");
  await expect(item).toContainText(
    `${slug} · every branch · alert.opened, alert.resolved, alert.bisected, alert.regraded`,
  );
  await expect(item).toContainText("me@example.com");

  // The admin sees it beside the team's, named as the member's.
  await page.reload();
  const theirs = page
    .locator("[data-testid^=subscription-]")
    .filter({ hasText: "me@example.com" })
    .filter({ hasText: slug });
  await expect(theirs).toContainText(`${username}'s`);
  await expect(
    page.locator("[data-testid^=subscription-]").filter({ hasText: "team list" }).filter({ hasText: slug }),
  ).toHaveCount(1);

  await item.getByRole("button", { name: "Delete" }).click();
  await mine
    .getByRole("dialog", { name: "Delete this subscription?" })
    .getByRole("button", { name: "Delete" })
    .click();
  await expect(item).toHaveCount(0);
  await expect(mine.getByTestId("subscriptions")).toContainText("No subscriptions yet");
  await member.close();
  await page.reload();
  await expect(
    page
      .locator("[data-testid^=subscription-]")
      .filter({ hasText: "me@example.com" })
      .filter({ hasText: slug }),
  ).toHaveCount(0);
});
