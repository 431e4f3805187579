// Earned alerts (issue 16) in the browser: a lasting step fed by CI is confirmed, marked on the
// chart at its first bad run and alerted with its commit range; a maintainer accepts it from the
// run page with a note, after which the chart shows the change and the alert is gone.
import type { components } from "../../src/api/schema";
import { stepHistory, uniqueSlug, type Bench, type SeriesSpec } from "../support/bench";
import { expect, test, type Page } from "../support/fixtures";

type Alert = components["schemas"]["AlertRead"];
type Series = components["schemas"]["SeriesRead"];
type RunDetail = components["schemas"]["RunDetail"];

const NOTE = "expected: new allocator";
const STABLE = 15;
const STEP_PCT = 13;

const encode = (values: number[]): SeriesSpec[] => [
  {
    benchmark: "encode",
    parameters: { size: 64 },
    metric: "time",
    unit: "ns",
    direction: "lower_is_better",
    values,
  },
];

/** Upload 15 steady runs and a lasting 13 % step over 4 runs; the first bad and last good runs. */
async function seedStep(bench: Bench) {
  const slug = uniqueSlug("earned");
  const runs = await bench.seedRuns(slug, encode(stepHistory(STABLE, 1000, STEP_PCT, 4)));
  return { slug, runs, lastGood: runs[STABLE - 1]!.run, firstBad: runs[STABLE]!.run };
}

const seriesPath = (slug: string) =>
  `/api/v1/series?system=${slug}&benchmark=encode&metric=time&max_points=300`;

function chartCard(page: Page) {
  return page.locator('[data-testid="series-card"][data-benchmark="encode"][data-metric="time"]');
}

/** The horizontal centre of an element's box, in page pixels. */
async function centreX(locator: ReturnType<Page["locator"]>): Promise<number> {
  const box = await locator.boundingBox();
  if (!box) throw new Error("the element has no box");
  return box.x + box.width / 2;
}

test.describe("earned alerts", () => {
  test("a lasting step: marked at its first bad run, alerted with its commit range, accepted from the run page", async ({
    page,
    bench,
    signIn,
  }) => {
    const { slug, runs, lastGood, firstBad } = await seedStep(bench);
    // The steady runs earn nothing; the step's first run is only suspected when it arrives.
    expect(runs.slice(0, STABLE).flatMap((r) => r.verdicts.map((v) => v.stage ?? null))).not.toContain(
      "suspected",
    );
    expect(runs[STABLE]!.verdicts[0]!.stage).toBe("suspected");
    const open = await bench.get<Alert[]>(`/api/v1/alerts?system=${slug}&status=open`);
    expect(open.map((a) => [a.run_id, a.last_good_run_id])).toEqual([[firstBad.id, lastGood.id]]);

    // The chart marks the step at the first bad run, and that point is the confirmed one.
    await page.goto(`/systems/${slug}?benchmark=encode&metric=time`);
    const card = chartCard(page);
    const step = card.getByTestId("step-marker");
    await expect(step).toHaveCount(1);
    await expect(step).toHaveAttribute("data-run", String(firstBad.id));
    await expect(step).toHaveAttribute("data-status", "open");
    await expect(step.locator("text")).toHaveText(/^Fail step \+1[2-4]\.\d % · worse$/);
    const point = card.locator(`[data-testid="point-marker"][data-run="${firstBad.id}"]`);
    await expect(point).toHaveAttribute("data-stage", "confirmed");
    expect(Math.abs((await centreX(step.locator("line"))) - (await centreX(point)))).toBeLessThan(2);
    await expect(page.getByRole("list", { name: "Chart legend" })).toContainText(
      "Outline: suspected, not yet confirmed",
    );

    // The alert names the commit range last good..first bad, its level and how it was confirmed.
    await page.goto(`/alerts?system=${slug}`);
    const alert = page.getByTestId("alerts-open").getByTestId("alert");
    await expect(alert).toHaveCount(1);
    await expect(alert.getByTestId("commit-range")).toHaveText(
      `${lastGood.commit!.slice(0, 10)}..${firstBad.commit!.slice(0, 10)}`,
    );
    await expect(alert.getByTestId("first-bad")).toHaveAttribute("href", `/runs/${firstBad.id}`);
    await expect(alert.getByTestId("last-good")).toHaveAttribute("href", `/runs/${lastGood.id}`);
    await expect(alert.getByTestId("step-line")).toContainText("Regressed");
    await expect(alert.getByTestId("confirmed-by")).toHaveText(
      /^confirmed by (a significant change point|the next runs staying worse)$/,
    );

    // Accept the step from the first bad run's page, with a note.
    await signIn(`/runs/${firstBad.id}`);
    const row = page.locator('[data-testid="measurement-row"][data-benchmark="encode"]');
    await expect(row.getByTestId("floors")).toHaveText(/^floor \d+(\.\d+)? % · noise [\d.]+ %$/);
    await row.getByRole("button", { name: "Accept as expected change…" }).click();
    const dialog = page.getByRole("dialog", { name: "Accept as expected change" });
    await expect(dialog.getByRole("button", { name: "Accept change" })).toBeDisabled();
    await dialog.getByLabel(/^Note/).fill(NOTE);
    await dialog.getByRole("button", { name: "Accept change" }).click();
    await expect(dialog.getByTestId("change-accepted")).toContainText(NOTE);
    await expect(row.getByTestId("accepted-note")).toHaveText(`Accepted as expected: “${NOTE}”`);

    // The chart now shows the change (dashed, labelled with the note); the step is resolved.
    await dialog.getByRole("link", { name: "See it on the chart" }).click();
    await expect(page).toHaveURL(new RegExp(`/systems/${slug}\\?`));
    const change = chartCard(page).getByTestId("change-marker");
    await expect(change).toHaveCount(1);
    await expect(change).toHaveAttribute("data-run", String(firstBad.id));
    await expect(change.locator("text")).toHaveText(NOTE);
    await expect(change.locator("line")).toHaveAttribute("stroke-dasharray", /\d/);
    await expect(chartCard(page).getByTestId("step-marker")).toHaveAttribute("data-status", "resolved");

    // And the alert is gone from the open ones.
    await page.goto(`/alerts?system=${slug}`);
    await expect(page.getByTestId("alerts-open").getByTestId("alert")).toHaveCount(0);
    await expect(page.getByTestId("alerts-acknowledged").getByTestId("alert")).toHaveCount(0);
    const series = await bench.get<Series>(seriesPath(slug));
    expect(series.changes?.map((c) => [c.run_id, c.note])).toEqual([[firstBad.id, NOTE]]);
  });

  test("an error from the API is said in words, and nothing is accepted", async ({ page, bench, signIn }) => {
    const { slug, firstBad } = await seedStep(bench);
    await signIn(`/runs/${firstBad.id}`);
    const row = page.locator('[data-testid="measurement-row"][data-benchmark="encode"]');
    await row.getByRole("button", { name: "Accept as expected change…" }).click();
    const dialog = page.getByRole("dialog", { name: "Accept as expected change" });
    await dialog.getByLabel(/^Note/).fill(NOTE);
    // The session ends on the server (as after signing out in another tab) before the click.
    const out = await page.request.post("/api/v1/auth/logout", { headers: { "x-benchdash-csrf": "1" } });
    expect(out.ok()).toBe(true);
    await dialog.getByRole("button", { name: "Accept change" }).click();
    await expect(dialog.getByTestId("accept-error")).toHaveText(
      "Could not accept this change: you are no longer signed in. Sign in again and retry.",
    );
    await expect(dialog.getByLabel(/^Note/)).toHaveValue(NOTE);

    const series = await bench.get<Series>(seriesPath(slug));
    expect(series.changes ?? []).toEqual([]);
    const open = await bench.get<Alert[]>(`/api/v1/alerts?system=${slug}&status=open`);
    expect(open).toHaveLength(1);
  });

  test("a runner-executed step is re-run twice before it alerts; the run page follows its re-runs", async ({
    page,
    bench,
    admin,
  }) => {
    const slug = uniqueSlug("earned");
    await bench.registerManifest(slug, { name: slug });
    await bench.seedRuns(slug, encode(stepHistory(12, 1000, 0, 0))); // 12 steady CI runs: the history
    // A run queued from the browser's API session (POST /runs), completed as its agent would.
    const csrf = { "x-benchdash-csrf": "1" };
    expect((await page.request.post("/api/v1/auth/login", { data: admin, headers: csrf })).ok()).toBe(true);
    const queued = await page.request.post("/api/v1/runs", {
      data: { system: slug, ref: "HEAD", profile: "quick", trigger: "web" },
      headers: csrf,
    });
    expect(queued.ok()).toBe(true);
    const runId = ((await queued.json()) as { id: number }).id;
    const worse = encode([1000 * (1 + STEP_PCT / 100)]);
    const done = await bench.completeRun(slug, runId, "c0ffee1234", worse);
    expect(done.verdicts[0]!.stage).toBe("suspected");
    const reruns = (await bench.get<RunDetail>(`/api/v1/runs/${runId}`)).reruns ?? [];
    expect(reruns.map((r) => [r.status, r.rerun_of])).toEqual([
      ["queued", runId],
      ["queued", runId],
    ]);

    await page.goto(`/runs/${runId}`);
    const panel = page.getByTestId("reruns");
    await expect(panel.getByTestId("rerun")).toHaveText(["re-run 1 of 2: queued", "re-run 2 of 2: queued"]);
    await expect(page.getByTestId("measurement-row")).toHaveAttribute("data-stage", "suspected");

    // The first re-run lands (still worse): the page updates by itself, and no alert opens yet.
    await bench.completeRun(slug, reruns[0]!.id, "c0ffee1234", worse);
    await expect(panel.getByTestId("rerun").first()).toHaveText("re-run 1 of 2: completed", {
      timeout: 20_000,
    });
    expect(await bench.get<Alert[]>(`/api/v1/alerts?system=${slug}`)).toEqual([]);
    await panel.getByRole("link", { name: "re-run 1 of 2" }).click();
    await expect(page.getByTestId("rerun-of")).toContainText(
      `it re-checks the suspected changes of run #${runId}`,
    );
    await page
      .getByTestId("rerun-of")
      .getByRole("link", { name: `run #${runId}` })
      .click();

    // The second confirms it: one alert, naming the queued run, confirmed by re-runs.
    await bench.completeRun(slug, reruns[1]!.id, "c0ffee1234", worse);
    await expect(panel.getByTestId("rerun")).toHaveText(
      ["re-run 1 of 2: completed", "re-run 2 of 2: completed"],
      {
        timeout: 20_000,
      },
    );
    await expect(page.getByTestId("measurement-row")).toHaveAttribute("data-stage", "confirmed");
    await expect(page.getByTestId("stage-note")).toHaveText(/^Confirmed: /);
    await page.goto(`/alerts?system=${slug}`);
    const alert = page.getByTestId("alerts-open").getByTestId("alert");
    await expect(alert).toHaveCount(1);
    await expect(alert.getByTestId("first-bad")).toHaveAttribute("href", `/runs/${runId}`);
    await expect(alert.getByTestId("confirmed-by")).toHaveText("confirmed by re-runs of the same commit");
  });
});
