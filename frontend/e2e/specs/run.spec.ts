import { history, uniqueSlug, type SeriesSpec } from "../support/bench";
import { expect, test } from "../support/fixtures";

// The two-stage detector's sentence: the change, the floors it crossed, and that it is only suspected.
const SENTENCE =
  /^\d+\.\d % slower than the median of runs #\d+–#\d+, p = [\d.e-]+ within the run; warn floor 5 %, fail floor 10 % \(.+\)\. Suspected: an alert opens only once the step is confirmed/;

test.describe("run page", () => {
  test("explains each verdict and its stage in a sentence, shows samples, filters to regressions", async ({
    page,
    bench,
  }) => {
    const slug = uniqueSlug("run");
    const spec = (benchmark: string, values: number[]): SeriesSpec => ({
      benchmark,
      metric: "time",
      unit: "ns",
      direction: "lower_is_better",
      values,
    });
    const runs = await bench.seedRuns(slug, [
      spec("alpha", history(12, 1000, 16)),
      spec("beta", history(12, 2000, 7)),
      spec("gamma", history(12, 3000)),
    ]);
    const last = runs.at(-1)!;
    const levels = Object.fromEntries(last.verdicts.map((v) => [v.benchmark, v.level]));
    expect(levels).toEqual({ alpha: "fail", beta: "warn", gamma: "ok" });

    await page.goto(`/runs/${last.run.id}`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(`Run #${last.run.id}`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("completed");
    await expect(page.getByText(last.run.commit!, { exact: true })).toBeVisible();
    const rows = page.getByTestId("measurement-row");
    await expect(rows).toHaveCount(3);
    // Worst first.
    await expect(rows.nth(0)).toHaveAttribute("data-level", "fail");
    await expect(rows.nth(1)).toHaveAttribute("data-level", "warn");
    const fail = page.locator('[data-testid="measurement-row"][data-level="fail"]');
    await expect(fail.getByTestId("explanation")).toHaveText(SENTENCE);
    await expect(fail).toContainText("Fail");
    await expect(fail).toContainText("alpha");
    // Crossing the floors makes a point suspected, not yet an alert; the floors are shown.
    await expect(fail).toHaveAttribute("data-stage", "suspected");
    await expect(fail.locator('[data-stage="suspected"]')).toHaveText("Suspected");
    await expect(fail.getByTestId("floors")).toHaveText(/^floor 5 % · noise [\d.]+ %$/);

    await fail.getByRole("button", { name: "Show samples" }).click();
    await expect(page.getByTestId("samples").locator("li")).toHaveCount(5);

    // The box follows the URL, which React Router updates in a transition: click, then wait.
    const only = page.getByLabel(/Only regressions \(2\)/);
    await only.click();
    await expect(only).toBeChecked();
    await expect(rows).toHaveCount(2);
    await expect(page).toHaveURL(/only=regressions/);
    await page.getByLabel("Filter measurements").fill("beta");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toHaveAttribute("data-level", "warn");
    await expect(page.getByTestId("row-count")).toHaveText("1 of 3");

    await page.getByRole("link", { name: "Compare this run with another…" }).click();
    await expect(page).toHaveURL(new RegExp(`/compare\\?system=${slug}&head=${last.run.id}$`));
  });

  test("with too little history nothing is judged, and the page says why", async ({ page, bench }) => {
    const slug = uniqueSlug("run");
    const runs = await bench.seedRuns(slug, [
      {
        benchmark: "young",
        metric: "time",
        unit: "ns",
        direction: "lower_is_better",
        values: history(4, 500, 30),
      },
    ]);
    const last = runs.at(-1)!;
    const reason = last.verdicts[0]!.reason;
    expect(reason).toBeTruthy();
    await page.goto(`/runs/${last.run.id}`);
    const row = page.getByTestId("measurement-row");
    await expect(row.getByTestId("not-judged")).toHaveText(`Not judged: ${reason}`);
    await expect(row.getByTestId("floors")).toHaveCount(0);
    await expect(row).not.toHaveAttribute("data-stage", /./);
  });

  test("an unknown run says so", async ({ page }) => {
    await page.goto("/runs/987654321");
    await expect(page.getByRole("alert")).toContainText(/not found/i);
  });
});
