// Testbeds people name (issue 25): a run a real runner agent executes lands on the testbed of the
// runs before it (the host's name, not an environment fingerprint) and is judged against them;
// its new compiler version is said on the run page and marked on the chart.
import { hostname } from "node:os";
import type { components } from "../../src/api/schema";
import type { Bench } from "../support/bench";
import { expect, test as base, type Page } from "../support/fixtures";
import { startAgent } from "../support/server";

type RunDetail = components["schemas"]["RunDetail"];

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

/** Queue a quick selftest run as the signed-in admin and wait until the agent completed it. */
async function runOnAgent(page: Page, bench: Bench): Promise<RunDetail> {
  const r = await page.request.post("/api/v1/runs", {
    data: { system: "selftest", ref: "HEAD", profile: "quick" },
    headers: { "x-benchdash-csrf": "1" },
  });
  expect(r.status(), await r.text()).toBe(201);
  const id = ((await r.json()) as { id: number }).id;
  await expect
    .poll(async () => (await bench.get<RunDetail>(`/api/v1/runs/${id}`)).status, { timeout: 150_000 })
    .toBe("completed");
  return bench.get<RunDetail>(`/api/v1/runs/${id}`);
}

test("a runner's run lands on the testbed of the runs before it, judged against them; a compiler change is marked", async ({
  page,
  agent,
  signIn,
  bench,
}) => {
  test.setTimeout(300_000);
  void agent;
  await signIn("/runs");
  const first = await runOnAgent(page, bench);
  expect(first.testbed).toBe(hostname()); // named after the host, not env-<hash>
  const version = String(first.environment?.compiler_version);

  // Ten more runs on that testbed, as an older Python measured them: CI uploads between the two
  // agent runs (the first started seconds ago; a driver's start time has whole seconds).
  const now = Date.now();
  for (let i = 0; i < 10; i++) {
    const at = new Date(now - 1000 + i * 50).toISOString();
    await bench.upload({
      schema: "benchdash/v1",
      system: "selftest",
      run: {
        external_id: `tb-${first.id}-${i}`,
        branch: first.branch,
        trigger: "ci",
        profile: first.profile ?? "quick",
        started_at: at,
        testbed: first.testbed!,
      },
      environment: { ...first.environment, compiler_version: "3.10.0" },
      results: first.measurements.map((m) => ({
        benchmark: m.benchmark,
        parameters: m.parameters as Record<string, number>,
        metrics: [{ name: m.metric, unit: m.unit, direction: m.direction, samples: m.samples }],
      })),
    });
  }

  const second = await runOnAgent(page, bench);
  expect(second.testbed).toBe(first.testbed);
  expect(second.measurements.length).toBeGreaterThan(0);
  for (const m of second.measurements) {
    expect(m.level, `${m.benchmark} is judged, not restarted: ${m.explanation}`).not.toMatch(
      /^(no_baseline|learning)$/,
    );
    expect(m.baseline_run_ids.length, `${m.benchmark} has a baseline`).toBeGreaterThan(0);
  }
  expect(second.environment_change?.text).toBe(`cpython 3.10.0 → ${version}`);

  await page.goto(`/runs/${second.id}`);
  await expect(page.getByTestId("environment-change")).toContainText(`cpython 3.10.0 → ${version}`);
  await expect(page.getByTestId("environment-change")).toContainText(`testbed ${first.testbed}`);

  // The system page (one batch for its series) marks the change on its charts.
  await page.goto("/systems/selftest");
  const marker = page.locator(`[data-testid="environment-marker"][data-run="${second.id}"]`);
  await expect(marker.first()).toBeAttached();
  await expect(marker.first()).toContainText(`cpython 3.10.0 → ${version}`);
  await expect(page.getByTestId("view-select").locator("option:checked")).toContainText(first.testbed!);
});
