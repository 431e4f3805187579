// Retention (issue 41): an admin sets a rule for one system's feature branches, reads the dry
// run of what it would remove, and a bad pattern is refused in words with the rules unchanged.
// The rule names this spec's own system only, and is removed at the end: nothing is applied.
import { uniqueSlug } from "../support/bench";
import { expect, test } from "../support/fixtures";

const DAY = 86_400_000;

const doc = (system: string, branch: string, daysAgo: number) => ({
  schema: "benchdash/v1" as const,
  system,
  run: {
    external_id: `${system}-${branch}-${daysAgo}`,
    branch,
    trigger: "ci" as const,
    testbed: "e2e-testbed",
    started_at: new Date(Date.now() - daysAgo * DAY).toISOString(),
  },
  results: [
    {
      benchmark: "keep",
      parameters: {},
      metrics: [
        { name: "ops", unit: "ops/s", direction: "higher_is_better" as const, samples: [10, 11, 10.5] },
      ],
    },
  ],
});

test("an admin sets a retention rule and reads its dry run; a bad pattern changes nothing", async ({
  page,
  signIn,
  bench,
}) => {
  const slug = uniqueSlug("retention");
  for (const [branch, days] of [
    ["main", 300],
    ["feature/old", 200],
    ["feature/old", 150],
    ["feature/new", 10],
  ] as const)
    await bench.upload(doc(slug, branch, days));
  await signIn("/admin?tab=retention");
  const rules = page.getByTestId("retention-rules");
  await expect(page.getByTestId("admin-retention")).toBeVisible();
  await page.getByRole("button", { name: "Add rule" }).click();
  const rule = rules.getByTestId("retention-rule").last();
  await rule.getByLabel("System").selectOption(slug);
  await rule.getByLabel("Branch pattern").fill("feature/*");
  await rule.getByLabel("Delete after days").fill("90");
  await page.getByRole("button", { name: "Save rules" }).click();
  const row = (branch: string) =>
    page
      .getByTestId("retention-branch")
      .filter({ hasText: slug })
      .and(page.locator(`[data-branch="${branch}"]`));
  await expect(row("feature/old")).toContainText("2 runs, 2 measurements");
  await expect(row("feature/new")).toContainText("0 runs, 0 measurements");
  await expect(row("main")).toContainText("none: kept");

  await rule.getByLabel("Branch pattern").fill("feature/[x");
  await page.getByRole("button", { name: "Save rules" }).click();
  await expect(page.getByTestId("admin-retention")).toContainText("never closes with ]");
  await page.reload();
  await expect(rules.getByTestId("retention-rule").last().getByLabel("Branch pattern")).toHaveValue(
    "feature/*",
  );

  await rules.getByTestId("retention-rule").last().getByRole("button", { name: "Remove" }).click();
  await page.getByRole("button", { name: "Save rules" }).click();
  await expect(row("feature/old")).toContainText("none: kept");
});
