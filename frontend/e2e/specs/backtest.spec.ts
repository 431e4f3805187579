// The backtest view (issue 28): a system's stored series replayed under other thresholds. A 12 %
// step seeded through the API opens nothing at 15/20 %, one fail step at its first bad run at
// 5/10 % (beside the alert the ingest did open), and one series is charted with that mark.
import type { components } from "../../src/api/schema";
import { history, stepHistory, uniqueSlug, type Bench } from "../support/bench";
import { expect, test, type Page } from "../support/fixtures";

type Alert = components["schemas"]["AlertRead"];

const STABLE = 30;

async function seed(bench: Bench) {
  const slug = uniqueSlug("backtest");
  const runs = await bench.seedRuns(slug, [
    {
      benchmark: "encode",
      metric: "time",
      unit: "ns",
      direction: "lower_is_better",
      values: stepHistory(STABLE, 1000, 12, 10),
    },
    {
      benchmark: "decode",
      metric: "time",
      unit: "ns",
      direction: "lower_is_better",
      values: history(STABLE + 10, 500),
    },
  ]);
  return { slug, firstBad: runs[STABLE]!.run };
}

async function replayAt(page: Page, warn: string, fail: string) {
  const form = page.getByTestId("backtest-form");
  await form.getByLabel("Warn %").fill(warn);
  await form.getByLabel("Fail %").fill(fail);
  await form.getByRole("button", { name: "Replay" }).click();
}

const row = (page: Page, benchmark: string) =>
  page.locator(`[data-testid="backtest-row"][data-benchmark="${benchmark}"]`);

test.describe("backtest", () => {
  test("a 12 % step: nothing at 15/20 %, one fail step at its first bad run at 5/10 %, charted alone", async ({
    page,
    bench,
  }) => {
    const { slug, firstBad } = await seed(bench);
    const did = await bench.get<Alert[]>(`/api/v1/alerts?system=${slug}`);
    expect(did.map((a) => [a.run_id, a.level, a.kind])).toEqual([[firstBad.id, "fail", "step"]]);

    // From the system page's header; the thresholds start at the current ones.
    await page.goto(`/systems/${slug}`);
    await page.getByRole("link", { name: "Backtest" }).click();
    await expect(page).toHaveURL(new RegExp(`/systems/${slug}/backtest$`));
    const form = page.getByTestId("backtest-form");
    await expect(form.getByLabel("Warn %")).toHaveValue("5");
    await expect(form.getByLabel("Fail %")).toHaveValue("10");

    // The replay may take seconds: the page says it is at work (the answer held back a moment).
    await page.route("**/api/v1/backtest", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await replayAt(page, "15", "20");
    await expect(page.getByTestId("backtest-progress")).toContainText(/Replaying every series… \d+ s/);
    await expect(form.getByRole("button", { name: "Replay" })).toBeDisabled();
    await expect(page.getByTestId("backtest-results")).toBeVisible();
    await page.unroute("**/api/v1/backtest");
    await expect(page.getByTestId("totals-would").getByTestId("events")).toHaveText("0");
    await expect(page.getByTestId("totals-did").getByTestId("events")).toHaveText("1");
    await expect(row(page, "encode").getByTestId("would-alert")).toHaveCount(0);
    await expect(row(page, "encode").getByTestId("did-alert")).toHaveAttribute(
      "data-run",
      String(firstBad.id),
    );
    await expect(row(page, "encode")).toHaveAttribute("data-differs", "true");
    await expect(row(page, "decode")).toHaveAttribute("data-differs", "false");

    // At 5/10 % the replay finds the step the ingest found: one fail step at the first bad run.
    await replayAt(page, "5", "10");
    const would = row(page, "encode").getByTestId("would-alert");
    await expect(would).toHaveCount(1);
    await expect(would).toHaveAttribute("data-run", String(firstBad.id));
    await expect(would).toHaveAttribute("data-level", "fail");
    await expect(would).toHaveAttribute("data-kind", "step");
    await expect(would).toContainText(/step \+1[1-3]\.\d % · worse from #\d+/);
    await expect(page.getByTestId("totals-would").getByTestId("events")).toHaveText("1");
    await expect(page.getByTestId("totals-would").getByTestId("per-100")).toHaveText("1.25");
    await expect(row(page, "decode").getByTestId("would-alert")).toHaveCount(0);
    await page.getByLabel("Only series where they differ").check();
    await expect(page.getByTestId("backtest-row")).toHaveCount(0);
    await page.getByLabel("Only series where they differ").uncheck();

    // One series, picked by typing: its chart marks the would-open step at the first bad run.
    await form.getByRole("button", { name: "One series" }).click();
    await form.getByLabel("Search series").fill("encode");
    await expect(form.getByLabel("Series", { exact: true })).toHaveValue(/:time$/);
    await form.getByRole("button", { name: "Replay" }).click();
    const marker = page.getByTestId("backtest-chart").getByTestId("step-marker");
    await expect(marker).toHaveCount(1);
    await expect(marker).toHaveAttribute("data-run", String(firstBad.id));
    await expect(marker).toHaveAttribute("data-status", "would open");
    await expect(marker.locator("text")).toHaveText(/^Fail step \+1[1-3]\.\d % · worse$/);
    await expect(page.getByTestId("backtest-row")).toHaveCount(1);

    // Its link opens the series on the system page.
    await row(page, "encode").getByTestId("series-link").click();
    await expect(page).toHaveURL(new RegExp(`/systems/${slug}\\?benchmark=encode&metric=time`));
    await expect(page.locator('[data-testid="series-card"][data-benchmark="encode"]')).toBeVisible();

    // The replays changed nothing stored.
    expect(await bench.get<Alert[]>(`/api/v1/alerts?system=${slug}`)).toEqual(did);
  });

  test("thresholds out of order are said in words and nothing is sent", async ({ page, bench }) => {
    const { slug } = await seed(bench);
    let sent = 0;
    page.on("request", (r) => {
      if (r.url().endsWith("/api/v1/backtest")) sent += 1;
    });
    await page.goto(`/systems/${slug}/backtest`);
    await replayAt(page, "10", "10");
    await expect(page.getByTestId("backtest-problems")).toHaveText(
      "Thresholds: warn (10 %) must be below fail (10 %).",
    );
    await expect(page.getByTestId("backtest-results")).toHaveCount(0);
    expect(sent).toBe(0);
  });

  test("an unknown system is said in words", async ({ page }) => {
    await page.goto(`/systems/${uniqueSlug("none")}/backtest`);
    await expect(page.getByRole("alert")).toContainText("Not found");
  });
});
