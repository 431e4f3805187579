import { history, uniqueSlug } from "../support/bench";
import { expect, test } from "../support/fixtures";

test.describe("deep links", () => {
  test("a link to one of several same-named benchmarks' charts never asks the API ambiguously", async ({
    page,
    bench,
  }) => {
    const slug = uniqueSlug("deeplink");
    const latency = {
      benchmark: "query",
      metric: "latency",
      unit: "ms",
      direction: "lower_is_better",
    } as const;
    await bench.seedRuns(slug, [
      { ...latency, parameters: { rows: 10 }, values: history(6, 2) },
      { ...latency, parameters: { rows: 1000 }, values: history(6, 40) },
    ]);
    const refused: string[] = [];
    page.on("response", (r) => {
      if (r.url().includes("/api/v1/series") && r.status() >= 400) refused.push(`${r.status()} ${r.url()}`);
    });
    const params = encodeURIComponent(JSON.stringify({ rows: 1000 }));
    await page.goto(`/systems/${slug}?benchmark=query&metric=latency&params=${params}`);
    await expect(page.getByTestId("trend-chart")).toHaveCount(2);
    expect(refused).toEqual([]);
  });
});
