import { PAINT_PREFIX } from "../../src/components/charts/usePaintMark";
import { history, uniqueSlug, type SeriesSpec } from "../support/bench";
import { extendSeries } from "../support/bulk";
import { expect, test, type Page } from "../support/fixtures";
import { PAINT_ATTACHMENT, type PaintFigures, type PaintSample } from "../support/paint-reporter";

const XSS = "<img src=x onerror=alert(1)>";

test.describe("system page", () => {
  test("charts every benchmark × metric; the fail marker explains itself and opens its run", async ({
    page,
    bench,
  }) => {
    const slug = uniqueSlug("system");
    const series: SeriesSpec[] = [
      {
        benchmark: "encode",
        metric: "time",
        unit: "ns",
        direction: "lower_is_better",
        values: history(12, 800, 15),
      },
      {
        benchmark: "encode",
        metric: "throughput",
        unit: "MiB/s",
        direction: "higher_is_better",
        values: history(12, 120),
      },
      {
        benchmark: "decode",
        metric: "time",
        unit: "ns",
        direction: "lower_is_better",
        values: history(12, 650),
      },
      {
        benchmark: "decode",
        metric: "throughput",
        unit: "MiB/s",
        direction: "higher_is_better",
        values: history(12, 150),
      },
    ];
    const runs = await bench.seedRuns(slug, series);
    const last = runs.at(-1)!;
    const fail = last.verdicts.find((v) => v.benchmark === "encode" && v.metric === "time")!;
    expect(fail.level).toBe("fail");
    expect(last.verdicts.filter((v) => v.level === "fail")).toHaveLength(1);

    await page.goto(`/systems/${slug}`);
    const charts = page.getByTestId("series-card").getByTestId("trend-chart");
    await expect(charts).toHaveCount(4);
    for (const chart of await charts.all()) await expect(chart).toHaveAttribute("data-points", "12");
    await expect(page.getByTestId("series-card").getByTestId("point-marker")).toHaveCount(4 * 12);

    await page.goto(`/systems/${slug}?benchmark=encode&metric=time`);
    const card = page.locator('[data-testid="series-card"][data-benchmark="encode"][data-metric="time"]');
    await expect(card).toHaveAttribute("data-focused", "true");
    const marker = card.locator(`[data-testid="point-marker"][data-level="fail"][data-run="${last.run.id}"]`);
    // One run worse is only suspected: an outlined marker, and no step marked.
    await expect(marker).toHaveAttribute("data-stage", "suspected");
    await expect(marker.locator("title")).toHaveText(/^Fail, suspected: run #\d+ /);
    await expect(card.getByTestId("step-marker")).toHaveCount(0);
    await marker.hover();
    const tooltip = card.getByTestId("chart-tooltip");
    for (const words of [
      "Fail",
      "Suspected",
      "main",
      `run #${last.run.id}`,
      "Value",
      "±",
      "Baseline",
      "Change",
      "p-value",
    ])
      await expect(tooltip).toContainText(words);
    await expect(tooltip).toContainText(`+${fail.change_pct!.toFixed(1)} %`);
    await page.mouse.move(0, 0);
    await expect(tooltip).toBeHidden();
    // Click where the marker is, as a person would (the hover dot lies on top of it by then).
    const box = (await marker.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect(page).toHaveURL(new RegExp(`/runs/${last.run.id}$`));
    await expect(page.getByTestId("measurement-row")).toHaveCount(4);
  });

  test("a benchmark named like HTML is shown as text", async ({ page, bench }) => {
    const slug = uniqueSlug("system");
    const [ingest] = await bench.seedRuns(slug, [
      { benchmark: XSS, metric: "latency", unit: "ms", direction: "lower_is_better", values: [1.5] },
    ]);
    for (const url of [`/systems/${slug}`, `/runs/${ingest!.run.id}`]) {
      await page.goto(url);
      await expect(page.getByText(XSS, { exact: true }).first()).toBeVisible();
      await expect(page.locator('img[src="x"]')).toHaveCount(0);
    }
  });

  // The paint time is reported (e2e/support/paint-reporter.ts), never asserted; what keeps the
  // chart fast is: the server downsamples 10,000 points and the chart draws at most 300.
  test("a 10,000-point series is downsampled on the server; its paint time is measured", async ({
    page,
    bench,
    databaseUrl,
  }, testInfo) => {
    test.setTimeout(240_000);
    const seed = async (points: number) => {
      const slug = uniqueSlug("paint");
      const [ingest] = await bench.seedRuns(slug, [
        { benchmark: "series", metric: "time", unit: "ns", direction: "lower_is_better", values: [1000] },
      ]);
      expect(await extendSeries(databaseUrl, ingest!.run.id, points)).toBe(points);
      return `/systems/${slug}?benchmark=series&metric=time`;
    };
    const big = await seed(10_000);
    const reference = await seed(300);

    const measure = async (url: string): Promise<PaintSample> => {
      await page.goto(url);
      return paintOf(page);
    };
    // Each chart once cold, then five reloads of each, interleaved so that both see the same load.
    const bigCold = await measure(big);
    const shown = Number(await page.getByTestId("trend-chart").getAttribute("data-points"));
    await expect(page.getByTestId("series-foot")).toContainText(
      "of 10,000 runs shown (downsampled on the server)",
    );
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThanOrEqual(300);
    const refCold = await measure(reference);
    await expect(page.getByTestId("series-foot")).toContainText("300 runs");
    const bigWarm: PaintSample[] = [];
    const refWarm: PaintSample[] = [];
    for (let i = 0; i < 5; i++) {
      bigWarm.push(await measure(big));
      refWarm.push(await measure(reference));
    }

    const figures: PaintFigures = {
      points: 10_000,
      shown,
      cold: bigCold,
      warm: bigWarm,
      reference: { points: 300, cold: refCold, warm: refWarm },
    };
    await testInfo.attach(PAINT_ATTACHMENT, {
      body: JSON.stringify(figures),
      contentType: "application/json",
    });
  });
});

/** The chart's first-paint measure (usePaintMark) and the series request's duration, of this load. */
async function paintOf(page: Page): Promise<PaintSample> {
  await page.waitForFunction(
    (prefix) => performance.getEntriesByType("measure").some((e) => e.name.startsWith(prefix)),
    PAINT_PREFIX,
    { timeout: 20_000 },
  );
  return page.evaluate((prefix) => {
    const paint = performance.getEntriesByType("measure").find((e) => e.name.startsWith(prefix))!;
    const request = performance
      .getEntriesByType("resource")
      .find((r) => r.name.includes("/api/v1/series")) as PerformanceResourceTiming | undefined;
    return {
      paintMs: paint.duration,
      seriesMs: request ? request.responseEnd - request.requestStart : NaN,
    };
  }, PAINT_PREFIX);
}
