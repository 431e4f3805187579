import { history, uniqueSlug, type SeriesSpec } from "../support/bench";
import { expect, test } from "../support/fixtures";

test.describe("compare", () => {
  test("a run against the one before it: a bar and a row per shared series, worst first", async ({
    page,
    bench,
  }) => {
    const slug = uniqueSlug("compare");
    const series: SeriesSpec[] = [
      {
        benchmark: "read",
        metric: "time",
        unit: "ns",
        direction: "lower_is_better",
        values: history(6, 400, 18),
      },
      {
        benchmark: "read",
        metric: "qps",
        unit: "ops/s",
        direction: "higher_is_better",
        values: history(6, 9000),
      },
      {
        benchmark: "write",
        metric: "time",
        unit: "ns",
        direction: "lower_is_better",
        values: history(6, 900),
      },
      {
        benchmark: "write",
        metric: "qps",
        unit: "ops/s",
        direction: "higher_is_better",
        values: history(6, 4000),
      },
    ];
    const runs = await bench.seedRuns(slug, series);
    const [first, previous, head] = [runs[0]!, runs.at(-2)!, runs.at(-1)!];

    await page.goto(`/compare?system=${slug}&head=${head.run.id}`);
    const rows = page.getByTestId("compare-row");
    await expect(rows).toHaveCount(4);
    await expect(rows.first()).toContainText("read");
    await expect(rows.first()).toContainText("time");
    await expect(rows.first()).toContainText("Fail");
    await expect(rows.first().getByText(/^\+1\d\.\d % · worse$/)).toBeVisible(); // time rose
    await expect(page.getByTestId("change-bars").locator(".recharts-bar-rectangle")).toHaveCount(4);
    await expect(page.getByRole("link", { name: `base #${previous.run.id}` })).toBeVisible();
    await expect(page.getByRole("link", { name: `head #${head.run.id}` })).toBeVisible();

    // Another base: the first run; the choice is kept in the URL.
    await page.getByLabel("Base run", { exact: true }).selectOption(String(first.run.id));
    await expect(page).toHaveURL(new RegExp(`base=${first.run.id}`));
    await expect(page.getByRole("link", { name: `base #${first.run.id}` })).toBeVisible();
    await expect(rows).toHaveCount(4);
  });

  test("asks for two runs until it has them", async ({ page, bench }) => {
    const slug = uniqueSlug("compare");
    await bench.seedRuns(slug, [
      { benchmark: "only", metric: "time", unit: "ns", direction: "lower_is_better", values: [10] },
    ]);
    await page.goto("/compare");
    await expect(page.getByText("Pick two runs", { exact: true })).toBeVisible();
    await page.getByLabel("System").selectOption(slug);
    await expect(page).toHaveURL(new RegExp(`system=${slug}`));
    await expect(page.getByText("Pick two runs", { exact: true })).toBeVisible();
  });
});
