import { execFileSync } from "node:child_process";
import { stepHistory } from "../support/bench";
import { expect, test as base } from "../support/fixtures";
import { ROOT, startAgent } from "../support/server";

// A real runner agent of the selftest system bisects an alert's range of this repository's own
// commits while the alerts page shows it live.
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

const git = (...args: string[]) => execFileSync("git", ["-C", ROOT, ...args], { encoding: "utf8" }).trim();

test.describe("bisection", () => {
  test("an alert's range is bisected live: steps appear with their verdicts, then the first bad commit", async ({
    page,
    agent,
    bench,
    signIn,
  }) => {
    test.setTimeout(240_000);
    void agent;
    // The range: the last four first-parent commits of this repository (HEAD~4..HEAD).
    const shas = git("rev-list", "--first-parent", "-n", "5", "HEAD").split("\n");
    const [head, good] = [shas[0]!, shas[4]!];
    // The seeded ends are far apart (100000 ops/s, then 10): every midpoint the real benchmark
    // measures (hundreds of ops/s) lies on the bad side, so the first commit of the range is named.
    const firstBad = shas[3]!;
    const commits = Array.from({ length: 16 }, (_, i) => (i === 11 ? good : i === 12 ? head : ""));
    const branch = `e2e-bisect-${Date.now()}`;
    await bench.seedRuns(
      "selftest",
      [
        {
          benchmark: "sort",
          parameters: { seconds: 0.4 },
          metric: "ops_per_s",
          unit: "ops/s",
          direction: "higher_is_better",
          values: stepHistory(12, 100_000, -99.99, 4),
        },
      ],
      branch,
      { commits: commits.map((c, i) => c || `${i.toString(16).padStart(2, "0")}${branch.slice(-8)}`) },
    );
    await signIn("/alerts?system=selftest");
    const alert = page.getByTestId("alert").filter({ hasText: branch });
    await expect(alert).toHaveCount(1);
    await alert.getByText("Bisections").click();
    await expect(alert.getByText("Not bisected yet.")).toBeVisible();
    await alert.getByRole("button", { name: "Bisect this range" }).click();

    const bisection = alert.getByTestId("bisection");
    await expect(bisection).toHaveAttribute("data-state", "running");
    // Watch it until it ends: the states its steps went through on the way.
    const seen = new Set<string>();
    await expect
      .poll(
        async () => {
          for (const v of await alert
            .getByTestId("bisection-step")
            .evaluateAll((els) => els.map((e) => `${e.getAttribute("data-verdict")}:${e.textContent}`)))
            seen.add(v);
          if (await alert.getByTestId("bisection-range").count()) seen.add("range");
          return bisection.getAttribute("data-state");
        },
        { timeout: 200_000, intervals: [200] },
      )
      .not.toBe("running");
    await expect(bisection, `steps seen: ${[...seen].join(" | ")}`).toHaveAttribute("data-state", "found");
    expect(
      [...seen].some((s) => s.startsWith("pending:")),
      `a step seen in flight: ${[...seen]}`,
    ).toBe(true);
    expect(seen.has("range"), "the narrowed range shown while it ran").toBe(true);
    const steps = alert.getByTestId("bisection-step");
    await expect(steps).toHaveCount(2); // 4 commits: log2 4 steps
    await expect(steps.nth(0)).toHaveAttribute("data-verdict", "bad");
    await expect(steps.nth(0)).toContainText("median");
    const subject = git("log", "-1", "--format=%s", firstBad);
    const culprit = alert.getByTestId("bisection-culprit");
    await expect(culprit).toContainText(firstBad.slice(0, 10));
    await expect(culprit).toContainText(subject.slice(0, 40));
    // The alert itself now names the commit.
    await expect(alert.getByTestId("alert-first-bad-commit")).toContainText(firstBad.slice(0, 10));
    const stored = await bench.get<{ id: number; first_bad_commit: { sha: string } | null }[]>(
      "/api/v1/alerts?system=selftest",
    );
    expect(stored.some((a) => a.first_bad_commit?.sha === firstBad)).toBe(true);
    // And the step's marker on the system page's chart names it (sha, subject, author).
    await page.goto(`/systems/selftest?branch=${encodeURIComponent(branch)}`);
    const marker = page.locator(`[data-testid="step-marker"][data-culprit="${firstBad.slice(0, 12)}"]`);
    await expect(marker).toHaveCount(1);
    const tooltip = marker.locator("title");
    await expect(tooltip).toContainText(`First bad commit ${firstBad.slice(0, 12)} “${subject}”`);
    await expect(tooltip).toContainText(`by ${git("log", "-1", "--format=%an", firstBad)}`);
  });
});
