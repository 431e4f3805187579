// End-to-end tests in headless Debian Chromium against a real API on a real PostgreSQL.
// Usage: node e2e/run.mjs [--screenshots-only] [--base-url http://127.0.0.1:PORT]
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { seedTenThousand, uploadHostileBenchmark, XSS_NAME } from "./data.mjs";
import { ADMIN, root, startAgent, startServer } from "./server.mjs";

const args = process.argv.slice(2);
const screenshotsOnly = args.includes("--screenshots-only");
// The committed screenshots are only rewritten on request (`--screenshots-only` or
// `--update-screenshots`); a plain test run writes its images to a temporary folder.
const shots =
  screenshotsOnly || args.includes("--update-screenshots")
    ? path.join(root, "docs", "screenshots")
    : path.join(tmpdir(), "benchdash-e2e-screenshots");
const PAINT_BUDGET_MS = 500;

const results = [];
async function scenario(name, fn) {
  const started = Date.now();
  try {
    await fn();
    results.push({ name, ok: true });
    console.log(`ok   ${name} (${Date.now() - started} ms)`);
  } catch (e) {
    results.push({ name, ok: false });
    console.log(
      `FAIL ${name}\n     ${String(e?.stack ?? e)
        .split("\n")
        .slice(0, 6)
        .join("\n     ")}`,
    );
  }
}
function assert(cond, message) {
  if (!cond) throw new Error(message);
}

const server = await startServer();
const { baseUrl } = server;
console.log(`e2e: API on ${baseUrl}`);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-quic",
    "--disable-sync",
  ],
});
const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, deviceScaleFactor: 1 });
const page = await context.newPage();
const dialogs = [];
page.on("dialog", (d) => {
  dialogs.push(d.message());
  void d.dismiss();
});
const pageErrors = [];
page.on("pageerror", (e) => pageErrors.push(String(e)));
const api = async (p) => (await fetch(`${baseUrl}${p}`)).json();
const failingRun = (await api("/api/v1/runs?system=uvhttp&limit=500")).items.find(
  (r) => r.external_id === "demo-uvhttp-main-45",
);
await mkdir(shots, { recursive: true });

try {
  await scenario("the overview shows five systems", async () => {
    await page.goto(`${baseUrl}/`);
    await page.locator('[data-testid="system-card"]').first().waitFor();
    await page.locator(".sparkline").first().waitFor();
    const slugs = await page
      .locator('[data-testid="system-card"]')
      .evaluateAll((els) => els.map((e) => e.dataset.system).sort());
    assert(
      JSON.stringify(slugs) === JSON.stringify(["cachex", "galay-ssl", "pointsub", "relay", "uvhttp"]),
      `systems: ${slugs}`,
    );
    await page.locator('[data-testid="recent-regressions"]').waitFor();
    await page.screenshot({ path: path.join(shots, "overview.png"), fullPage: true });
  });

  await scenario("the uvhttp page renders its charts with points", async () => {
    await page.goto(`${baseUrl}/systems/uvhttp`);
    await page.locator('[data-testid="series-card"] .recharts-line').first().waitFor();
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="series-card"] .recharts-line').length >= 12,
    );
    const cards = await page.locator('[data-testid="series-card"]').count();
    assert(cards === 12, `expected 3 benchmarks × 4 metrics = 12 charts, saw ${cards}`);
    const points = await page
      .locator('[data-testid="series-card"] .trend-chart')
      .evaluateAll((els) => els.map((e) => Number(e.dataset.points)));
    assert(
      points.every((n) => n >= 50),
      `every chart should show its ~60 runs, saw ${points}`,
    );
    const markers = await page.locator(".point-marker").count();
    assert(markers >= 12 * 50, `expected a marker per point, saw ${markers}`);
  });

  await scenario("the injected fail shows as a fail marker and opens its run", async () => {
    assert(failingRun, "the demo's failing run demo-uvhttp-main-45 exists");
    await page.goto(
      `${baseUrl}/systems/uvhttp?benchmark=medium_concurrency&metric=requests_per_second&branch=main`,
    );
    const card = page.locator(
      '.series-card.focused[data-benchmark="medium_concurrency"][data-metric="requests_per_second"]',
    );
    await card.waitFor();
    const fail = card.locator(`.point-marker[data-level="fail"][data-run="${failingRun.id}"]`);
    await fail.waitFor();
    const label = await fail.locator("title").textContent();
    assert(label.startsWith("Fail:"), `the marker says its verdict in words: ${label}`);
    await fail.hover();
    const tooltip = await card.locator(".chart-tooltip").textContent();
    for (const word of [
      "Fail",
      "main",
      `run #${failingRun.id}`,
      "Value",
      "±",
      "Baseline",
      "Change",
      "+11.8 %",
      "p-value",
    ])
      assert(tooltip.includes(word), `the tooltip shows ${word}: ${tooltip}`);
    await page.mouse.move(0, 0);
    await card.locator(".chart-tooltip").waitFor({ state: "hidden" });
    await page.screenshot({ path: path.join(shots, "system.png") });
    // Click where the marker is, as a person would (the hover dot lies on top of it by then).
    const box = await fail.boundingBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForURL(`**/runs/${failingRun.id}`);
    await page.locator('[data-testid="measurement-row"]').first().waitFor();
  });

  await scenario("the run page explains the fail in a sentence", async () => {
    await page.goto(`${baseUrl}/runs/${failingRun.id}`);
    const row = page.locator('[data-testid="measurement-row"][data-level="fail"]');
    await row.waitFor();
    const sentence = await row.locator('[data-testid="explanation"]').textContent();
    assert(
      /^\d+\.\d % slower than the median of runs #\d+–#\d+ \(p = [\d.e-]+\); fail threshold 10 %\.$/.test(
        sentence,
      ),
      `sentence: ${sentence}`,
    );
    assert((await row.textContent()).includes("Fail"), "the badge names the verdict");
    await row.getByRole("button", { name: "Show samples" }).click();
    await page.locator(".sample-list li").first().waitFor();
    await page.screenshot({ path: path.join(shots, "run.png"), fullPage: true });
    const total = await page.locator('[data-testid="measurement-row"]').count();
    await page.getByLabel(/Only regressions/).click(); // controlled by the URL: assert on the rows
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="measurement-row"]').length === 1,
    );
    assert(page.url().includes("only=regressions"), "the filter is in the URL");
    assert(total === 12, `the run has 12 measurements, saw ${total}`);
  });
  if (screenshotsOnly) throw new Error("screenshots taken");

  await scenario("the fail regression is listed in Alerts", async () => {
    await page.goto(`${baseUrl}/alerts`);
    const open = page.locator('[data-testid="alerts-open"] [data-testid="alert"]');
    await open.first().waitFor();
    const texts = await open.allTextContents();
    assert(
      texts.some(
        (t) => t.includes("uvhttp") && t.includes("medium_concurrency") && t.includes("requests_per_second"),
      ),
      texts.join("\n"),
    );
    assert(
      texts.some((t) => /fail threshold 10 %/.test(t)),
      "the alert explains itself",
    );
  });

  await scenario("compare shows the failing run against the one before it", async () => {
    await page.goto(`${baseUrl}/compare?system=uvhttp&head=${failingRun.id}`);
    const row = page.locator('[data-testid="compare-table"] tbody tr').first();
    await row.waitFor();
    const text = await row.textContent();
    assert(
      text.includes("medium_concurrency") && text.includes("requests_per_second") && text.includes("Fail"),
      text,
    );
    assert(/\+1\d\.\d %/.test(text), `a change above 10 %: ${text}`);
    await page.locator('[data-testid="change-bars"] .recharts-bar-rectangle').first().waitFor();
    const bars = await page.locator('[data-testid="change-bars"] .recharts-bar-rectangle').count();
    assert(bars === 12, `a bar per series, saw ${bars}`);
  });

  await scenario("acknowledging an alert after signing in moves it to acknowledged", async () => {
    await context.clearCookies();
    await page.goto(`${baseUrl}/alerts`);
    const alert = page.locator('[data-testid="alerts-open"] [data-testid="alert"]').first();
    await alert.waitFor();
    const id = await alert.getAttribute("data-alert-id");
    await alert.getByRole("link", { name: "Sign in to acknowledge" }).click();
    await page.waitForURL("**/sign-in?**");
    await page.getByLabel("User name").fill(ADMIN.username);
    await page.getByLabel("Password").fill("wrong-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText("Wrong user name or password.").waitFor();
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL("**/alerts");
    await page
      .locator(`[data-testid="alerts-open"] [data-alert-id="${id}"]`)
      .getByRole("button", { name: "Acknowledge" })
      .click();
    await page.locator(`[data-testid="alerts-acknowledged"] [data-alert-id="${id}"]`).waitFor();
    assert(
      (await page.locator(`[data-testid="alerts-open"] [data-alert-id="${id}"]`).count()) === 0,
      "gone from open",
    );
    const acked = await api("/api/v1/alerts?status=acknowledged");
    assert(
      acked.some((a) => String(a.id) === id && (a.acknowledged_by ?? "").includes(ADMIN.username)),
      "the API has it acknowledged by admin",
    );
  });

  await scenario(
    "Run benchmarks from a system page: progress reaches 100 % and a new point appears",
    async () => {
      const agent = await startAgent(server);
      try {
        await page.goto(`${baseUrl}/systems/selftest`);
        await page.getByRole("button", { name: "Run benchmarks" }).click();
        await page.getByRole("dialog").getByLabel("Ref").fill("HEAD");
        await page.getByRole("button", { name: "Start run" }).click();
        await page.waitForURL(/\/runs\/\d+$/);
        const runId = Number(page.url().split("/").pop());
        const bar = page.getByRole("progressbar", { name: "Progress" });
        await bar.waitFor();
        const seen = new Set();
        const deadline = Date.now() + 120_000;
        for (;;) {
          const now = Number(await bar.getAttribute("aria-valuenow"));
          seen.add(now);
          if (now === 100) break;
          assert(Date.now() < deadline, `progress stuck at ${[...seen]}`);
          await page.waitForTimeout(100);
        }
        assert(
          [...seen].some((p) => p > 0 && p < 100),
          `saw intermediate progress: ${[...seen]}`,
        );
        await page.getByText("sort repetition 1", { exact: false }).first().waitFor();
        await page.locator(".live-head").getByText("completed").waitFor({ timeout: 60_000 });
        await page.screenshot({ path: path.join(shots, "run-live.png"), fullPage: false });
        await page.locator("table").getByText("sort").first().waitFor({ timeout: 30_000 });
        const run = await api(`/api/v1/runs/${runId}`);
        assert(run.status === "completed" && run.measurements.length === 3, `run ${run.status}`);
        await page.goto(`${baseUrl}/systems/selftest`);
        await page.locator('[data-testid="series-card"] .trend-chart').first().waitFor();
        const points = await page
          .locator('[data-testid="series-card"] .trend-chart')
          .evaluateAll((els) => els.map((e) => Number(e.dataset.points)));
        assert(points.length === 3 && points.every((n) => n === 1), `one new point per chart: ${points}`);
        await page.locator(`.point-marker`).first().waitFor();
      } finally {
        agent.stop();
      }
    },
  );

  await scenario("a benchmark named like HTML is shown as text, and no dialog fires", async () => {
    const runId = await uploadHostileBenchmark(baseUrl, server.token);
    for (const url of [`/systems/uvhttp`, `/runs/${runId}`]) {
      await page.goto(`${baseUrl}${url}`);
      await page.getByText(XSS_NAME, { exact: true }).first().waitFor();
      assert((await page.locator('img[src="x"]').count()) === 0, `an <img> was injected on ${url}`);
    }
    await page.waitForTimeout(300);
    assert(dialogs.length === 0, `dialogs fired: ${dialogs}`);
  });

  await scenario("with the API down the page shows a banner, not a blank screen", async () => {
    const down = await browser.newPage();
    await down.route(/\/(api\/|healthz)/, (route) => route.abort("connectionrefused"));
    await down.goto(`${baseUrl}/`);
    await down.locator('[data-testid="api-down"]').waitFor();
    await down.getByText("The benchdash API cannot be reached").first().waitFor();
    await down.close();
  });

  // The paint time is a figure this test prints, compared with the 500 ms budget; it
  // is not asserted (house rule: speed goals are measured and reported, never timed assertions
  // that fail a build on a busy machine). What is asserted is what keeps it fast: the server
  // downsamples and the chart draws a bounded number of points.
  await scenario(
    "a 10,000-point chart is downsampled on the server and its paint time is measured",
    async () => {
      await seedTenThousand(baseUrl, server.token, server.databaseUrl);
      const url = `${baseUrl}/systems/perf10k?benchmark=series_10k&metric=time`;
      // Navigation start → the frame after the chart's line is in the DOM (recorded by TrendChart),
      // and how much of that the API's series response took.
      const measure = async () => {
        await page.goto(url);
        await page.waitForFunction(() => Object.values(window.__benchdashPaint ?? {})[0], null, {
          timeout: 10_000,
        });
        return page.evaluate(() => {
          const series = performance
            .getEntriesByType("resource")
            .find((r) => r.name.includes("/api/v1/series"));
          return {
            paint: Math.round(Object.values(window.__benchdashPaint)[0]),
            api: Math.round(series.responseEnd - series.requestStart),
          };
        });
      };
      const cold = await measure();
      const warm = [];
      for (let i = 0; i < 5; i++) warm.push(await measure());
      warm.sort((a, b) => a.paint - b.paint);
      const median = warm[2].paint;
      const shown = await page.locator(".trend-chart").getAttribute("data-points");
      const total = (await page.locator(".series-foot").textContent()) ?? "";
      console.log(
        `     10,000-point chart: first paint ${cold.paint} ms after navigation on first load; on 5 reloads ` +
          `${warm.map((w) => w.paint).join(" / ")} ms, median ${median} ms (the series API answered in ${warm.map((w) => w.api).join(" / ")} ms); ${total.trim()}`,
      );
      console.log(
        `     paint budget ${PAINT_BUDGET_MS} ms: ${median <= PAINT_BUDGET_MS ? "met" : "NOT met"} (median ${median} ms)`,
      );
      assert(total.includes("of 10,000"), `the server downsampled 10,000 points: ${total}`);
      assert(Number(shown) <= 300, `the chart draws a bounded number of points: ${shown}`);
    },
  );

  await scenario("no uncaught errors in the page", async () => {
    assert(pageErrors.length === 0, pageErrors.join("\n"));
  });
} catch (e) {
  if (!screenshotsOnly) throw e;
} finally {
  await browser.close();
  server.stop();
}

const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
if (screenshotsOnly) console.log(`screenshots in ${shots}`);
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
