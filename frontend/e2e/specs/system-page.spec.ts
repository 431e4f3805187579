import { history, stepHistory, uniqueSlug, type SeriesSpec } from "../support/bench";
import { expect, test } from "../support/fixtures";

const steady = (benchmark: string, metric: string, base: number, runs = 14): SeriesSpec => ({
  benchmark,
  metric,
  unit: metric === "time" ? "ns" : "req/s",
  direction: metric === "time" ? "lower_is_better" : "higher_is_better",
  values: history(runs, base),
});

test.describe("system page of many series", () => {
  test("regressed and suspected first, search, only changed, collapse, one request, one Tab stop per chart", async ({
    page,
    bench,
  }) => {
    const slug = uniqueSlug("board");
    await bench.seedRuns(slug, [
      { ...steady("zz_parse", "time", 800), values: stepHistory(10, 800, 20, 4) }, // confirmed step
      { ...steady("mm_encode", "time", 650), values: history(14, 650, 15) }, // one run worse
      steady("aa_decode", "time", 500),
      steady("aa_decode", "throughput", 120),
      steady("mm_encode", "throughput", 90),
      { ...steady("bb_hash", "time", 40), parameters: { size: 64 } },
      { ...steady("bb_hash", "time", 70), parameters: { size: 4096 } },
    ]);
    const series: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/api/v1/series")) series.push(new URL(r.url()).pathname);
    });
    await page.goto(`/systems/${slug}`);
    const look = page.getByTestId("needs-a-look").getByTestId("series-card");
    await expect(look).toHaveCount(2);
    await expect(look.nth(0)).toHaveAttribute("data-state", "regressed");
    await expect(look.nth(0)).toHaveAttribute("data-benchmark", "zz_parse");
    await expect(look.nth(1)).toHaveAttribute("data-state", "suspected");
    await expect(page.getByTestId("benchmark-group")).toHaveCount(3);
    await expect(page.getByTestId("benchmark-group").first()).toHaveAttribute("data-benchmark", "aa_decode");
    // Charts draw as they come near the viewport: the last one once scrolled to.
    await page.getByTestId("series-card").last().scrollIntoViewIfNeeded();
    await expect(page.getByTestId("trend-chart")).toHaveCount(7);
    expect(series).toEqual(["/api/v1/series/batch"]); // one request for the page, none per chart

    // Each card is one Tab stop (its title link): the chart and its brush are not.
    const title = look.nth(0).getByTestId("series-title");
    await title.focus();
    await page.keyboard.press("Tab");
    await expect(look.nth(1).getByTestId("series-title")).toBeFocused();
    // A y tick is one line of text.
    const tick = look.nth(0).getByTestId("y-tick").first();
    expect((await tick.boundingBox())!.height).toBeLessThan(18);

    // Search: every word in benchmark, metric or parameter.
    const search = page.getByTestId("series-search");
    await search.fill("hash size=4096");
    await expect(page.getByTestId("series-card")).toHaveCount(1);
    await expect(page.getByTestId("series-card")).toHaveAttribute("data-benchmark", "bb_hash");
    await expect(page).toHaveURL(/q=hash/);
    await search.fill("nothing-like-this");
    await expect(page.getByText("No series match")).toBeVisible();
    await search.fill("");

    // Only changed: the regressed and the suspected series stay.
    const onlyChanged = page.getByLabel("Only changed");
    await onlyChanged.click(); // the URL holds it: the box follows once the route has updated
    await expect(onlyChanged).toBeChecked();
    await expect(page).toHaveURL(/changed=1/);
    await expect(page.getByTestId("series-card")).toHaveCount(2);
    await expect(page.getByTestId("benchmark-group")).toHaveCount(0);
    await onlyChanged.click();
    await expect(onlyChanged).not.toBeChecked();
    await expect(page.getByTestId("series-card")).toHaveCount(7);

    // Collapse a group: its charts are hidden, the others stay.
    const group = page.locator('[data-testid="benchmark-group"][data-benchmark="aa_decode"]');
    await group.locator("summary").click();
    await expect(group.getByTestId("series-card").first()).toBeHidden();
    await expect(
      page.locator('[data-benchmark="bb_hash"] [data-testid="series-card"]').first(),
    ).toBeVisible();
    await group.locator("summary").click();
    await expect(group.getByTestId("series-card").first()).toBeVisible();
  });

  test("the default view is the testbed and profile with the newest runs; the selector shows counts", async ({
    page,
    bench,
  }) => {
    const slug = uniqueSlug("views");
    const old = [steady("encode", "time", 800, 6), steady("decode", "time", 500, 6)];
    await bench.seedRuns(slug, old, "main", { testbed: "old-box", hoursAgo: 48 });
    await bench.seedRuns(slug, [steady("encode", "time", 300, 3)], "main", {
      testbed: "new-box",
      profile: "standard",
    });
    await page.goto(`/systems/${slug}`);
    const select = page.getByTestId("view-select");
    await expect(select.locator("option:checked")).toHaveText("new-box · standard — 3 runs, 1 series");
    await expect(select.locator("option")).toHaveText([
      "new-box · standard — 3 runs, 1 series",
      "old-box · quick — 6 runs, 2 series",
    ]);
    await expect(page.getByTestId("series-card")).toHaveCount(1);
    await expect(page.getByTestId("series-foot")).toHaveText("3 runs");

    await select.selectOption({ label: "old-box · quick — 6 runs, 2 series" });
    await expect(page).toHaveURL(/testbed=old-box/);
    await expect(page.getByTestId("series-card")).toHaveCount(2);
    await expect(page.getByTestId("series-foot").first()).toHaveText("6 runs");
  });

  test("a benchmark's only chart takes the whole row", async ({ page, bench }) => {
    const slug = uniqueSlug("wide");
    await bench.seedRuns(slug, [steady("lonely", "time", 100, 3)]);
    await page.goto(`/systems/${slug}`);
    const group = (await page.getByTestId("benchmark-group").boundingBox())!;
    const card = (await page.getByTestId("series-card").boundingBox())!;
    expect(card.width).toBeGreaterThan(group.width * 0.9);
  });
});
