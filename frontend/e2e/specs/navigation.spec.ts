// Navigation (issue 25): the runs list shows verdict counts and visible filters (system, branch,
// state) and says so for an unknown system; compare has a searchable run picker; an alert links
// its compare and its commit range in the system's repository.
import { history, stepHistory, uniqueSlug, type SeriesSpec } from "../support/bench";
import { expect, test } from "../support/fixtures";

const time = (values: number[]): SeriesSpec[] => [
  { benchmark: "read", metric: "time", unit: "ns", direction: "lower_is_better", values },
];

test.describe("navigation", () => {
  test("the runs list: verdict counts, visible filters and an unknown system named", async ({
    page,
    bench,
  }) => {
    const slug = uniqueSlug("nav");
    const runs = await bench.seedRuns(slug, time(history(12, 400, 25)));
    await bench.seedRuns(slug, time(history(2, 400)), "feature/x");
    const last = runs.at(-1)!.run;

    await page.goto(`/runs?system=${slug}`);
    await expect(page.getByTestId("runs-filter-on")).toContainText(`system ${slug}`);
    await expect(page.getByTestId("runs-system")).toHaveValue(slug);
    await expect(page.getByTestId("run-row")).toHaveCount(14);
    const row = page.locator(`[data-testid="run-row"][data-run="${last.id}"]`);
    await expect(row.getByTestId("run-counts")).toHaveText("1 fail");

    await page.getByTestId("runs-branch").fill("feature/x");
    await page.getByTestId("runs-branch").press("Enter");
    await expect(page).toHaveURL(/branch=feature%2Fx/);
    await expect(page.getByTestId("run-row")).toHaveCount(2);
    await expect(page.getByTestId("runs-filter-on")).toContainText("branch feature/x");
    await page.getByTestId("runs-state").selectOption("failed");
    await expect(page.getByText("No run matches these filters")).toBeVisible();
    await page.getByRole("button", { name: "clear filters" }).click();
    await expect(page).toHaveURL(/\/runs$/);
    await expect(page.getByTestId("runs-filter-on")).toHaveCount(0);

    await page.goto("/runs?system=nope");
    await expect(page.getByTestId("runs-unknown-system")).toContainText("There is no system named nope");
    await expect(page.getByTestId("runs-unknown-system")).toContainText(slug);
  });

  test("compare: type a commit to pick a run", async ({ page, bench }) => {
    const slug = uniqueSlug("nav");
    const runs = await bench.seedRuns(slug, time(history(8, 400)));
    const [base, head] = [runs[2]!.run, runs.at(-1)!.run];
    await page.goto(`/compare?system=${slug}`);
    await page.getByLabel("Search base runs").fill(base.commit!.slice(0, 8));
    await expect(page).toHaveURL(new RegExp(`base=${base.id}`));
    await page.getByLabel("Search head runs").fill(`#${head.id}`);
    await expect(page.getByLabel("Head run", { exact: true }).locator("option")).toHaveCount(2);
    await page.getByLabel("Head run", { exact: true }).selectOption(String(head.id));
    await expect(page.getByRole("link", { name: `base #${base.id}` })).toBeVisible();
    await expect(page.getByRole("link", { name: `head #${head.id}` })).toBeVisible();
  });

  test("an alert links its compare and its commit range in the repository", async ({ page, bench }) => {
    const slug = uniqueSlug("nav");
    await bench.registerManifest(slug, {
      name: slug,
      repository: "https://github.com/acme/widget",
      metrics: [{ name: "time", unit: "ns", direction: "lower_is_better", warn: 5, fail: 10 }],
    });
    const runs = await bench.seedRuns(slug, time(stepHistory(15, 1000, 13, 4)));
    const [good, bad] = [runs[14]!.run, runs[15]!.run];
    await page.goto(`/alerts?system=${slug}`);
    const alert = page.getByTestId("alert").first();
    await expect(alert.getByTestId("alert-compare")).toHaveAttribute(
      "href",
      `/compare?system=${slug}&base=${good.id}&head=${bad.id}`,
    );
    await expect(alert.getByTestId("alert-commits")).toHaveAttribute(
      "href",
      `https://github.com/acme/widget/compare/${good.commit}...${bad.commit}`,
    );
  });
});
