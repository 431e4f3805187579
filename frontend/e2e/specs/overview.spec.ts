import type { components } from "../../src/api/schema";
import { history, stepHistory, uniqueSlug, type SeriesSpec } from "../support/bench";
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
    // A lasting 25 % step: confirmed, so an alert opens naming its first bad run.
    const runs = await bench.seedRuns(regressed, parse(stepHistory(12, 1000, 25, 4)));
    await bench.seedRuns(steady, parse(history(16, 500))); // enough runs to be judged: OK, not learning
    const last = runs.at(-1)!;
    const [alert] = await bench.get<components["schemas"]["AlertRead"][]>(
      `/api/v1/alerts?system=${regressed}&status=open`,
    );
    expect(alert?.run_id).toBe(runs[12]!.run.id);

    await page.goto("/");
    const card = page.locator(`[data-testid="system-card"][data-system="${regressed}"]`);
    // The card counts the latest run's regressions, whatever stage they are in.
    await expect(card.getByTestId("fail-count")).toHaveText(`${last.run.counts?.fail ?? 0} fail`);
    await expect(card.getByTestId("warn-count")).toHaveText(`${last.run.counts?.warn ?? 0} warn`);
    await expect(card.getByTestId("open-alerts")).toHaveText("1 open alert");
    await expect(card.getByText("Go", { exact: true })).toBeVisible();
    await expect(card.getByRole("img", { name: "time of parse, last 16 runs" })).toBeVisible();
    await expect(card.getByRole("link", { name: last.run.commit!.slice(0, 10) })).toHaveAttribute(
      "href",
      `/runs/${last.run.id}`,
    );

    const calm = page.locator(`[data-testid="system-card"][data-system="${steady}"]`);
    await expect(calm.getByTestId("fail-count")).toHaveText("0 fail");
    await expect(calm.getByTestId("open-alerts")).toHaveCount(0);
    await expect(calm.getByText("No headline metric yet.")).toBeVisible();

    // One status per card, from its open alerts and latest verdicts together; worst first, and
    // what needs a look (the recent regressions) above the cards.
    await expect(card.getByTestId("card-status")).toHaveText("Regressed");
    await expect(calm.getByTestId("card-status")).toHaveText("OK");
    const order = await page
      .getByTestId("system-card")
      .evaluateAll((cards) => cards.map((c) => c.getAttribute("data-system")));
    expect(order.indexOf(regressed)).toBeLessThan(order.indexOf(steady));
    const above = await page.getByTestId("recent-regressions").boundingBox();
    expect(above!.y).toBeLessThan((await card.boundingBox())!.y);

    const regression = page
      .getByTestId("recent-regressions")
      .getByTestId("regression")
      .filter({ hasText: regressed });
    await expect(regression).toHaveCount(1);
    await expect(regression).toContainText("parse");
    await expect(regression).toContainText(`+${alert!.change_pct!.toFixed(1)} %`);
    await expect(regression.getByTestId("commit-range")).toHaveText(
      `${runs[11]!.run.commit!.slice(0, 10)}..${runs[12]!.run.commit!.slice(0, 10)}`,
    );
    await expect(regression.getByTestId("confirmed-by")).toContainText("confirmed by");

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
