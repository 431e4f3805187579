// One status model (src/lib/status.ts): a system still learning is "not judged yet", never OK,
// and its card agrees with its headline; a warn-level regression reads and looks different from
// a fail-level one, on the alerts page, the overview and the README badge alike.
import type { components } from "../../src/api/schema";
import { history, stepHistory, uniqueSlug, type SeriesSpec } from "../support/bench";
import { expect, test, type Page } from "../support/fixtures";

const parse = (values: number[]): SeriesSpec[] => [
  { benchmark: "parse", metric: "time", unit: "ns", direction: "lower_is_better", values },
];

/** The computed text colour of a status badge's pill. */
const pillColor = (page: Page, health: string) =>
  page
    .locator(`[data-testid="health"][data-health="${health}"] > span`)
    .first()
    .evaluate((e) => getComputedStyle(e).color);

test.describe("status", () => {
  test("a system still learning is not judged yet, never OK, card and headline alike", async ({
    page,
    bench,
  }) => {
    const slug = uniqueSlug("learning");
    await bench.registerManifest(slug, { name: slug, headline: { benchmark: "parse", metric: "time" } });
    // Three runs, the last one 60 % worse: too few to measure the noise, so nothing is judged.
    const runs = await bench.seedRuns(slug, parse(history(3, 1000, 60)));
    expect(runs.at(-1)!.verdicts[0]!.level).toBe("learning");

    await page.goto("/");
    const card = page.locator(`[data-testid="system-card"][data-system="${slug}"]`);
    await expect(card.getByTestId("card-status")).toHaveText("Not judged yet");
    await expect(card.getByTestId("headline-status")).toHaveText("Not judged yet");
    await expect(card.getByTestId("card-status")).not.toHaveText(/OK/);

    await page.goto(`/systems/${slug}`);
    await expect(page.getByRole("heading", { level: 1 }).getByTestId("health")).toHaveText("Not judged yet");
    await page.goto(`/runs/${runs.at(-1)!.run.id}`);
    await expect(page.getByRole("heading", { level: 1 }).getByTestId("health")).toHaveText("Not judged yet");

    const badge = await fetch(`${bench.baseUrl}/api/v1/badges/${slug}.svg`).then((r) => r.text());
    expect(badge).toContain("not judged yet");
    expect(badge).not.toMatch(/>ok</);
  });

  test("a warn-level alert is amber and says so; a fail-level one is red and says regressed", async ({
    page,
    bench,
  }) => {
    const warned = uniqueSlug("warned");
    const failed = uniqueSlug("failed");
    await bench.seedRuns(warned, parse(stepHistory(25, 1000, 8, 5, 0.2)));
    await bench.seedRuns(failed, parse(stepHistory(12, 1000, 25, 4)));
    type Alert = components["schemas"]["AlertRead"];
    const [warn] = await bench.get<Alert[]>(`/api/v1/alerts?system=${warned}&status=open`);
    const [fail] = await bench.get<Alert[]>(`/api/v1/alerts?system=${failed}&status=open`);
    expect([warn?.level, fail?.level]).toEqual(["warn", "fail"]);

    await page.goto(`/alerts?system=${warned}`);
    const warnStep = page.getByTestId("alert").getByTestId("step-line").getByTestId("health");
    await expect(warnStep).toHaveText("Worse (warn)");
    const amber = await pillColor(page, "worse");
    await page.goto(`/alerts?system=${failed}`);
    const failStep = page.getByTestId("alert").getByTestId("step-line").getByTestId("health");
    await expect(failStep).toHaveText("Regressed");
    const red = await pillColor(page, "regressed");
    expect(amber).not.toBe(red);

    await page.goto("/");
    const cardOf = (slug: string) =>
      page.locator(`[data-testid="system-card"][data-system="${slug}"]`).getByTestId("card-status");
    await expect(cardOf(warned)).toHaveText("Worse (warn)");
    await expect(cardOf(failed)).toHaveText("Regressed");
    const colorOf = (slug: string) =>
      cardOf(slug)
        .locator("span span")
        .evaluate((e) => getComputedStyle(e).color);
    expect(await colorOf(warned)).toBe(amber);
    expect(await colorOf(failed)).toBe(red);

    const svg = (slug: string) => fetch(`${bench.baseUrl}/api/v1/badges/${slug}.svg`).then((r) => r.text());
    const [warnSvg, failSvg] = await Promise.all([svg(warned), svg(failed)]);
    expect(warnSvg).toContain("1 worse (warn)");
    expect(failSvg).toContain("1 regression");
    expect(warnSvg).not.toContain("#e05d44"); // the red of a regression
  });
});
