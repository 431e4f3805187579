// Profiles (issue 30): runs uploaded with folded-stack profiles through the real API, where one
// function's cost grows at a step. The run page draws the flame graph, the compare view's
// differential flame graph marks the grown function red, and the alert names it first.
import { randomBytes } from "node:crypto";
import { stepHistory, uniqueSlug, type Doc } from "../support/bench";
import { expect, test, type Page } from "../support/fixtures";

const GROWN = "relay::crypto::cbc_encrypt";
const SHRUNK = "relay::frame::parse";
const HOUR = 3_600_000;

/** Folded stacks of one run: before the step cbc_encrypt costs 50k of 100k, after it 70k of 118k; parse shrinks a little. */
const stacks = (bad: boolean) =>
  [
    `main;relay::handle;relay::crypto::encrypt;${GROWN} ${bad ? 70_000 : 50_000}`,
    `main;relay::handle;relay::crypto::encrypt ${10_000}`,
    `main;relay::handle;${SHRUNK} ${bad ? 28_000 : 30_000}`,
    `main;relay::handle ${10_000}`,
  ].join("\n") + "\n";

/** A run of `system` with one instructions measurement (five samples around `value`) and its profile. */
function runDocument(system: string, i: number, value: number, bad: boolean, start: number): Doc {
  const at = new Date(start + i * HOUR).toISOString();
  const result = {
    benchmark: "encryption",
    parameters: { input: 1000 },
    metrics: [
      {
        name: "instructions",
        unit: "instructions",
        direction: "lower_is_better" as const,
        samples: [0.9999, 0.99995, 1, 1.00005, 1.0001].map((d) => Math.round(value * d)),
      },
    ],
    profile: {
      kind: "instructions",
      unit: "instructions",
      metric: "instructions",
      format: "folded",
      stacks: stacks(bad),
    },
  };
  return {
    schema: "benchdash/v1",
    system,
    run: {
      external_id: `${system}-${i}`,
      commit: randomBytes(5).toString("hex"),
      branch: "main",
      trigger: "ci",
      profile: "quick",
      testbed: "e2e-testbed",
      started_at: at,
      finished_at: at,
    },
    environment: { os: "Linux", cpu: "e2e", cores: 2, memory_mb: 2048 },
    results: [result],
  } as Doc;
}

/** The frame of `name` in the flame graph `graph` (d3-flame-graph names each frame's group). */
const frame = (page: Page, graph: string, name: string) =>
  page.getByTestId(graph).locator(`g.frame[name="${name}"]`);

/** The frame's drawn fill, resolved by the browser: [r, g, b]. */
async function fillOf(page: Page, graph: string, name: string): Promise<number[]> {
  const fill = await frame(page, graph, name)
    .locator("rect")
    .evaluate((rect) => getComputedStyle(rect).fill);
  return (fill.match(/\d+/g) ?? []).slice(0, 3).map(Number);
}

test.describe("profiles", () => {
  test("flame graph on the run page, differential flame graph in compare, the grown function first on the alert", async ({
    page,
    bench,
  }) => {
    const slug = uniqueSlug("profiles");
    // 12 steady runs, then 4 with 19 % more instructions: a step, confirmed once it has held.
    const values = stepHistory(12, 100_000, 19, 4, 0.05);
    const start = Date.now() - (values.length + 1) * HOUR;
    const runs = [];
    for (const [i, v] of values.entries())
      runs.push(await bench.upload(runDocument(slug, i, v, i >= 12, start)));
    const [lastGood, firstBad] = [runs[11]!.run, runs[12]!.run];

    // The run page: its profiles, one opened as a flame graph with its top functions.
    await page.goto(`/runs/${firstBad.id}`);
    const profiles = page.getByTestId("run-profiles");
    await expect(profiles.getByTestId("run-profile")).toHaveCount(1);
    await profiles.getByRole("button", { name: /encryption \(input=1000\) · instructions/ }).click();
    await expect(page).toHaveURL(/flame=\d+/);
    const grown = frame(page, "flame-graph", GROWN);
    await expect(grown).toHaveCount(1);
    await expect(grown.locator(".d3-flame-graph-label")).toHaveText(GROWN);
    // 70k of a 118k total: the frame is drawn about 0.59 as wide as the root.
    const width = (name: string) =>
      frame(page, "flame-graph", name)
        .locator("rect")
        .evaluate((r) => r.getBoundingClientRect().width);
    await expect.poll(async () => (await width(GROWN)) / (await width("all"))).toBeCloseTo(70 / 118, 1);
    const fns = page.getByTestId("profile-function");
    await expect(fns.first()).toContainText(GROWN);
    await expect(fns.first()).toContainText("70k Ir");
    await expect(page.getByTestId("profile-functions")).toContainText(SHRUNK);

    // Compare: last good against first bad, the differential flame graph marks the grown frame red.
    await page.goto(`/compare?system=${slug}&base=${lastGood.id}&head=${firstBad.id}`);
    const section = page.getByTestId("compare-profiles");
    await expect(section.getByLabel("Profile")).toHaveValue(/:instructions$/);
    await expect(frame(page, "diff-flame-graph", GROWN)).toHaveCount(1);
    await expect(frame(page, "diff-flame-graph", GROWN).locator("rect")).toHaveAttribute(
      "fill",
      /flame-grew/,
    );
    await expect(frame(page, "diff-flame-graph", SHRUNK).locator("rect")).toHaveAttribute(
      "fill",
      /flame-shrank/,
    );
    const [r, , b] = await fillOf(page, "diff-flame-graph", GROWN);
    expect(r!, "the grown frame is drawn red").toBeGreaterThan(b! + 60);
    const [r2, , b2] = await fillOf(page, "diff-flame-graph", SHRUNK);
    expect(b2!, "the shrunk frame is drawn blue").toBeGreaterThan(r2! + 30);
    await expect(section.getByTestId("flame-legend")).toContainText("Red: grew");
    await expect(section.getByTestId("flame-legend")).toContainText("Blue: shrank");
    const rows = section.getByTestId("diff-function");
    await expect(rows.first()).toContainText(GROWN);
    await expect(rows.first()).toHaveAttribute("data-tone", "grew");
    await expect(rows.last()).toContainText(SHRUNK);
    await expect(rows.last()).toHaveAttribute("data-tone", "shrank");

    // The alert: its root cause names the grown function first, and shows the same diff on demand.
    await page.goto(`/alerts?system=${slug}`);
    const alert = page.getByTestId("alerts-open").getByTestId("alert");
    await expect(alert).toHaveCount(1);
    const cause = alert.getByTestId("root-cause");
    await expect(cause.getByTestId("root-cause-summary")).toContainText(`+20.0 % in ${GROWN}`);
    await expect(cause.getByTestId("root-cause-function").first()).toContainText(GROWN);
    await expect(cause.getByTestId("root-cause-function").first()).toContainText("+20.0 %");
    await cause.getByRole("button", { name: "Show the differential flame graph" }).click();
    await expect(frame(page, "diff-flame-graph", GROWN).locator("rect")).toHaveAttribute(
      "fill",
      /flame-grew/,
    );
    await expect(cause.getByRole("link", { name: `base run #${lastGood.id}` })).toBeVisible();
    await expect(cause.getByRole("link", { name: `head run #${firstBad.id}` })).toBeVisible();
  });
});
