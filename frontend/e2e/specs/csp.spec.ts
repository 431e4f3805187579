// The Content-Security-Policy the API sends with every page: the UI and the API docs work under
// it with no violation (e2e/support/csp.ts watches; the page fixture of every spec fails on any),
// the watch does catch one, and no page of ours renders in another page's frame.
import { history, stepHistory, uniqueSlug, type SeriesSpec } from "../support/bench";
import { watchViolations } from "../support/csp";
import { expect, test } from "../support/fixtures";

const SERIES: SeriesSpec[] = [
  {
    benchmark: "encode",
    metric: "time",
    unit: "ns",
    direction: "lower_is_better",
    values: stepHistory(12, 800, 15, 3),
  },
  {
    benchmark: "encode",
    metric: "throughput",
    unit: "MiB/s",
    direction: "higher_is_better",
    values: history(15, 120),
  },
];

test.describe("content security policy", () => {
  test("every main page of the UI and the API docs run under it without a violation", async ({
    page,
    csp,
    bench,
    signIn,
  }) => {
    const slug = uniqueSlug("csp");
    await bench.registerManifest(slug, { name: slug, language: "Go" });
    const runs = await bench.seedRuns(slug, SERIES);
    const last = runs.at(-1)!;
    const response = await page.goto("/");
    const policy = response!.headers()["content-security-policy"]!;
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("style-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(response!.headers()["x-content-type-options"]).toBe("nosniff");
    await expect(page.locator(`[data-testid="system-card"][data-system="${slug}"]`)).toBeVisible();

    await page.goto(`/systems/${slug}?benchmark=encode&metric=time`);
    const card = page.locator('[data-testid="series-card"][data-benchmark="encode"][data-metric="time"]');
    await expect(card.getByTestId("point-marker")).toHaveCount(15);
    // The tooltip's position and the hover styles are Recharts' inline styles.
    await card.getByTestId("point-marker").last().hover();
    await expect(card.getByTestId("chart-tooltip")).toBeVisible();

    await page.goto(`/runs/${last.run.id}`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(`Run #${last.run.id}`);
    await page.goto(`/compare?system=${slug}&head=${last.run.id}`);
    await expect(page.getByTestId("change-bars").locator(".recharts-bar-rectangle")).toHaveCount(2);
    await page.goto(`/alerts?system=${slug}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await signIn("/runs");
    await expect(page.getByTestId("run-row").first()).toBeVisible();
    await page.goto(`/${"x".repeat(300)}`);
    await expect(page.getByText("There is no page here")).toBeVisible();

    await page.goto("/api/docs");
    await expect(page.locator(".swagger-ui .info .title")).toContainText("benchdash");
    const operation = page.locator("#operations-results-results-create_result");
    await operation.locator(".opblock-summary").click();
    await expect(operation.locator(".opblock-body")).toBeVisible();
    await operation.getByRole("button", { name: "Try it out" }).click();
    await expect(operation.locator("textarea.body-param__text")).toBeVisible();
    await expect(page.locator(".swagger-ui .models, .swagger-ui section.models")).toBeVisible();

    expect(csp.events).toEqual([]);
    expect(csp.messages).toEqual([]);
  });

  // These two break the policy on purpose: on a page of their own, not the fixture's watched one.
  test("the watch catches a violation: an inline script is refused", async ({ context }) => {
    const page = await context.newPage();
    const watch = await watchViolations(page);
    await page.goto("/");
    await page.evaluate(() => {
      const s = document.createElement("script");
      s.textContent = "window.__ran = true";
      document.head.append(s);
    });
    await expect
      .poll(() => watch.events)
      .toContainEqual(expect.objectContaining({ directive: "script-src-elem" }));
    expect(await page.evaluate(() => (window as unknown as { __ran?: boolean }).__ran)).toBeUndefined();
    await expect.poll(() => watch.messages.length).toBeGreaterThan(0);
  });

  test("no page of ours renders inside another page's frame", async ({ context, baseURL }) => {
    const page = await context.newPage();
    const watch = await watchViolations(page);
    // A page without our headers (Playwright answers it) on our own origin, so that only the CSP,
    // not Chromium's private-network rules, can stop the frame.
    await page.route(`${baseURL}/frame-host`, (route) =>
      route.fulfill({ contentType: "text/html", body: '<iframe src="/systems"></iframe>' }),
    );
    await page.goto("/frame-host");
    const framed = page.frames().find((f) => f !== page.mainFrame())!;
    // Chromium shows its error page in the frame instead of the UI.
    await expect.poll(() => framed.content()).toContain("ERR_BLOCKED_BY_RESPONSE");
    expect(await framed.locator("#root").count()).toBe(0);
    expect(watch.events).toEqual([]); // the refusal happened in the frame, not on this page
  });
});
