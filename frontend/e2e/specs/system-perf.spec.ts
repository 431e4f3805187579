// A system of 300 series: the first regressed chart's paint and the page's settling time after
// navigation, median of 5 loads, beside the old per-chart page (?charts=single) in the same run.
// Figures, not assertions (e2e/support/paint-reporter.ts prints them against their budgets);
// what keeps the page fast is asserted: one request, and only the charts near the viewport drawn.
import { PAINT_PREFIX } from "../../src/components/charts/usePaintMark";
import { PAGE_READY } from "../../src/features/system/hooks/pageReady";
import { history, stepHistory, uniqueSlug, type SeriesSpec } from "../support/bench";
import { expect, test, type Page } from "../support/fixtures";
import { PAGE_ATTACHMENT, type PageFigures, type PageSample } from "../support/paint-reporter";

// Playwright's trace recorder snapshots the whole DOM (300 cards) in the page at every step,
// on the page's main thread: about 0.6 s inside the measured loads. Off for this spec.
test.use({ trace: "off" });

const BENCHMARKS = 100;
const METRICS = [
  { metric: "time", unit: "ns", direction: "lower_is_better" as const },
  { metric: "throughput", unit: "MiB/s", direction: "higher_is_better" as const },
  { metric: "allocations", unit: "count", direction: "lower_is_better" as const },
];
const REGRESSED = "bench_097";
const RUNS = 14;

function seriesOf(): SeriesSpec[] {
  const out: SeriesSpec[] = [];
  for (let b = 0; b < BENCHMARKS; b++) {
    const benchmark = `bench_${String(b).padStart(3, "0")}`;
    for (const [i, m] of METRICS.entries()) {
      const base = 100 + b * 7 + i * 1000;
      const values =
        benchmark === REGRESSED && m.metric === "time"
          ? stepHistory(RUNS - 4, base, 20, 4)
          : b % 40 === 5 && m.metric === "time"
            ? history(RUNS, base, 15) // suspected
            : history(RUNS, base);
      out.push({ benchmark, ...m, values });
    }
  }
  return out;
}

/** Load `url` and wait until the regressed chart has painted and no chart paints for a second. */
async function measure(page: Page, url: string, expectCharts: number | null): Promise<PageSample> {
  let requests = 0;
  const count = (r: { url: () => string }) => {
    if (r.url().includes("/api/v1/series")) requests++;
  };
  page.on("request", count);
  await page.goto(url);
  const key = `/${REGRESSED}/`;
  await page.waitForFunction(
    ({ prefix, key }) =>
      performance
        .getEntriesByType("measure")
        .some((e) => e.name.startsWith(prefix) && e.name.includes(key) && e.name.endsWith("/time")),
    { prefix: PAINT_PREFIX, key },
    { timeout: 120_000 },
  );
  await page.waitForFunction(
    async ({ prefix, want }) => {
      const painted = () =>
        performance.getEntriesByType("measure").filter((e) => e.name.startsWith(prefix)).length;
      const before = painted();
      await new Promise((r) => setTimeout(r, 1000));
      return painted() === before && (want === null || before >= want);
    },
    { prefix: PAINT_PREFIX, want: expectCharts },
    { timeout: 180_000, polling: 100 },
  );
  page.off("request", count);
  return page
    .evaluate(
      ({ prefix, key, ready }) => {
        const paints = performance.getEntriesByType("measure").filter((e) => e.name.startsWith(prefix));
        const regressed = paints.find((e) => e.name.includes(key) && e.name.endsWith("/time"))!;
        const readyAt = performance.getEntriesByName(ready, "measure")[0]?.duration ?? 0;
        return {
          regressedMs: regressed.duration,
          interactiveMs: Math.max(readyAt, ...paints.map((p) => p.duration)),
          charts: paints.length,
          requests: 0,
        };
      },
      { prefix: PAINT_PREFIX, key, ready: PAGE_READY },
    )
    .then((s) => ({ ...s, requests }));
}

test("a system of 300 series: first regressed chart and interactive page, beside the old page", async ({
  page,
  bench,
}, testInfo) => {
  test.setTimeout(900_000);
  const slug = uniqueSlug("perf");
  await bench.seedRuns(slug, seriesOf());
  const batchUrl = `/systems/${slug}`;
  const singleUrl = `/systems/${slug}?charts=single`;

  const first = await measure(page, batchUrl, null); // cold: the chart chunk, the caches
  expect(first.requests).toBe(1);
  await expect(page.getByTestId("needs-a-look").getByTestId("series-card").first()).toHaveAttribute(
    "data-benchmark",
    REGRESSED,
  );
  // Only the charts near the viewport are drawn, not 300.
  expect(first.charts).toBeLessThan(60);
  await measure(page, singleUrl, BENCHMARKS * METRICS.length);

  const figures: PageFigures = { series: BENCHMARKS * METRICS.length, batch: [], single: [] };
  for (let i = 0; i < 5; i++) {
    figures.batch.push(await measure(page, batchUrl, null));
    figures.single.push(await measure(page, singleUrl, BENCHMARKS * METRICS.length));
  }
  expect(figures.single[0]!.requests).toBeGreaterThanOrEqual(300);
  await testInfo.attach(PAGE_ATTACHMENT, { body: JSON.stringify(figures), contentType: "application/json" });
});
