import { expect, test as base } from "../support/fixtures";
import { startAgent } from "../support/server";

// A real runner agent for the selftest system (a tiny Python benchmark), stopped after the test
// however it ends.
const test = base.extend<{ agent: void }>({
  agent: async ({ baseURL, databaseUrl }, use) => {
    const agent = await startAgent(baseURL!, databaseUrl, "selftest");
    try {
      await use();
    } finally {
      await agent.stop();
    }
  },
});

test.describe("runs", () => {
  test("Run benchmarks from a system page: live progress to 100 %, then its results and a new point", async ({
    page,
    agent,
    signIn,
    bench,
  }) => {
    test.setTimeout(240_000);
    void agent;
    await signIn("/systems/selftest");
    await page.getByRole("button", { name: "Run benchmarks" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel(/^Ref/).fill("HEAD");
    await dialog.getByRole("radio", { name: /^quick/ }).check();
    await dialog.getByRole("button", { name: "Start run" }).click();
    await expect(page).toHaveURL(/\/runs\/\d+$/);
    const runId = Number(page.url().split("/").pop());

    // Watch the bar until the run ends: the percentages seen on the way, and the state it ends in.
    const bar = page.getByRole("progressbar", { name: "Progress" });
    const live = page.getByTestId("live-run");
    const seen = new Set<number>();
    await expect
      .poll(
        async () => {
          seen.add(Number(await bar.getAttribute("aria-valuenow")));
          return live.getAttribute("data-status");
        },
        { timeout: 180_000, intervals: [100] },
      )
      .toMatch(/^(completed|failed|cancelled|timed_out)$/);
    await expect(
      live,
      `the run ended; its log: ${await page.getByLabel("Log").textContent()}`,
    ).toHaveAttribute("data-status", "completed");
    await expect(bar).toHaveAttribute("aria-valuenow", "100");
    expect(
      [...seen].some((p) => p > 0 && p < 100),
      `intermediate progress, saw ${[...seen]}`,
    ).toBe(true);
    await expect(page.getByLabel("Log")).toContainText("sort repetition 1");
    await expect(page.getByTestId("measurement-row")).toHaveCount(3);

    const run = await bench.get<{ status: string; measurements: unknown[]; trigger: string }>(
      `/api/v1/runs/${runId}`,
    );
    expect(run).toMatchObject({ status: "completed", trigger: "web" });
    expect(run.measurements).toHaveLength(3);

    await page.goto("/systems/selftest");
    await expect(page.getByTestId("trend-chart")).toHaveCount(3);
    await expect(page.locator(`[data-testid="point-marker"][data-run="${runId}"]`)).toHaveCount(3);

    await page.goto("/runs?system=selftest&status=completed");
    const row = page.locator(`[data-testid="run-row"][data-run="${runId}"]`);
    await expect(row).toContainText("completed");
    await expect(row).toContainText("web");
    await page.getByTestId("runs-state").selectOption("failed");
    await expect(page).toHaveURL(/status=failed/);
    await expect(row).toHaveCount(0);
  });
});
