import { history, uniqueSlug, type SeriesSpec } from "../support/bench";
import { expect, test } from "../support/fixtures";

const parse = (values: number[]): SeriesSpec[] => [
  { benchmark: "parse", metric: "time", unit: "ns", direction: "lower_is_better", values },
];

test.describe("overview", () => {
  test("a card per system: last run, regressions, open alerts and the headline trend", async ({
    page,
    bench,
  }) => {
    const regressed = uniqueSlug("overview");
    const steady = uniqueSlug("overview");
    await bench.registerManifest(regressed, {
      name: regressed,
      language: "Go",
      headline: { benchmark: "parse", metric: "time" },
    });
    const runs = await bench.seedRuns(regressed, parse(history(8, 1000, 25)));
    await bench.seedRuns(steady, parse(history(8, 500)));
    const last = runs.at(-1)!;
    const verdict = last.verdicts[0]!;
    expect(verdict.level).toBe("fail");

    await page.goto("/");
    const card = page.locator(`[data-testid="system-card"][data-system="${regressed}"]`);
    await expect(card.getByTestId("fail-count")).toHaveText("1 fail");
    await expect(card.getByTestId("warn-count")).toHaveText("0 warn");
    await expect(card.getByTestId("open-alerts")).toHaveText("1 open alert");
    await expect(card.getByText("Go", { exact: true })).toBeVisible();
    await expect(card.getByRole("img", { name: "time of parse, last 8 runs" })).toBeVisible();
    await expect(card.getByRole("link", { name: last.run.commit!.slice(0, 10) })).toHaveAttribute(
      "href",
      `/runs/${last.run.id}`,
    );

    const calm = page.locator(`[data-testid="system-card"][data-system="${steady}"]`);
    await expect(calm.getByTestId("fail-count")).toHaveText("0 fail");
    await expect(calm.getByTestId("open-alerts")).toHaveCount(0);
    await expect(calm.getByText("No headline metric yet.")).toBeVisible();

    const regression = page
      .getByTestId("recent-regressions")
      .getByTestId("regression")
      .filter({ hasText: regressed });
    await expect(regression).toHaveCount(1);
    await expect(regression).toContainText("parse");
    await expect(regression).toContainText(`+${verdict.change_pct!.toFixed(1)} %`);

    await card.getByRole("link", { name: regressed, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/systems/${regressed}$`));
    await expect(page.getByRole("heading", { level: 1 })).toContainText(regressed);
  });

  test("with the API down the page shows a banner, not a blank screen", async ({ page }) => {
    await page.route(/\/(api\/|healthz)/, (route) => route.abort("connectionrefused"));
    await page.goto("/");
    await expect(page.getByTestId("api-down")).toContainText("The benchdash API cannot be reached");
    await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  });
});
