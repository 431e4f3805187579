// `make screenshots`: the README's pictures, taken on the demo history (global setup loads it
// when BENCHDASH_SCREENSHOTS=1). Not part of the e2e suite; it writes docs/screenshots/*.png.
import path from "node:path";
import { expect, test } from "../support/fixtures";
import { ROOT, startAgent } from "../support/server";

const shot = (name: string) => path.join(ROOT, "docs", "screenshots", `${name}.png`);

interface Alert {
  run_id: number;
  benchmark: string;
  metric: string;
  branch: string;
}

test("overview, system, run and live run", async ({ page, bench, baseURL, databaseUrl, signIn }) => {
  test.setTimeout(300_000);
  await page.goto("/");
  await expect(page.getByTestId("system-card")).toHaveCount(5);
  await expect(page.getByTestId("recent-regressions")).toBeVisible();
  await page.screenshot({ path: shot("overview"), fullPage: true });

  // The demo's injected regression: uvhttp's open alert (on main if there is one).
  const alerts = await bench.get<Alert[]>("/api/v1/alerts?system=uvhttp&status=open");
  const alert = alerts.find((a) => a.branch === "main") ?? alerts[0];
  expect(alert, "the demo has an open uvhttp alert").toBeDefined();
  const { run_id: runId, benchmark, metric, branch } = alert!;
  await page.goto(`/systems/uvhttp?benchmark=${benchmark}&metric=${metric}&branch=${branch}`);
  const card = page.locator(
    `[data-testid="series-card"][data-benchmark="${benchmark}"][data-metric="${metric}"]`,
  );
  // The confirmed step, marked at its first bad run (no tooltip, which would cover its label).
  await expect(card.locator(`[data-testid="step-marker"][data-run="${runId}"]`)).toBeVisible();
  await expect(card.locator(`[data-testid="point-marker"][data-run="${runId}"]`)).toHaveAttribute(
    "data-stage",
    "confirmed",
  );
  // The regressed series lead the page ("Needs a look"): the top of the page shows it.
  await expect(card.getByTestId("trend-chart")).toBeVisible();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: shot("system") });

  await page.goto("/alerts");
  await expect(page.getByTestId("alert").first()).toBeVisible();
  await page.screenshot({ path: shot("alerts") });

  // relay's injected step: its alert names the function whose cost grew, with the diff on demand.
  await page.goto("/alerts?system=relay");
  const relay = page.getByTestId("alerts-open").getByTestId("alert").first();
  const cause = relay.getByTestId("root-cause");
  await expect(cause.getByTestId("root-cause-function").first()).toContainText("sha2::compress256");
  await cause.getByRole("button", { name: "Show the differential flame graph" }).click();
  await expect(cause.getByTestId("diff-flame-graph").locator("rect").first()).toBeVisible();
  await page.mouse.move(0, 0);
  await relay.screenshot({ path: shot("root-cause") });

  await page.goto(`/runs/${runId}`);
  await page
    .locator('[data-testid="measurement-row"][data-level="fail"]')
    .getByRole("button", { name: "Show samples" })
    .click();
  await expect(page.getByTestId("samples")).toBeVisible();
  await page.screenshot({ path: shot("run"), fullPage: true });

  const agent = await startAgent(baseURL!, databaseUrl, "selftest");
  try {
    await signIn("/systems/selftest");
    await page.getByRole("button", { name: "Run benchmarks" }).click();
    await page.getByRole("dialog").getByLabel(/^Ref/).fill("HEAD");
    await page.getByRole("dialog").getByRole("button", { name: "Start run" }).click();
    await expect(page.getByTestId("live-run")).toHaveAttribute("data-status", "completed", {
      timeout: 180_000,
    });
    await page.screenshot({ path: shot("run-live") });

    await page.goto("/admin");
    await expect(page.getByRole("heading", { name: /admin/i }).first()).toBeVisible();
    await page.screenshot({ path: shot("admin") });
  } finally {
    await agent.stop();
  }
});
