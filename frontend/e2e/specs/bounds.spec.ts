// Units with bounds (issue 25): a percentage over 100, or a value outside a metric's declared
// range, is refused with 422 naming the result and metric; nothing of it is stored or plotted.
import { uniqueSlug } from "../support/bench";
import { expect, test } from "../support/fixtures";

const doc = (system: string, i: number, hit: number) => ({
  schema: "benchdash/v1" as const,
  system,
  run: { external_id: `${system}-${i}`, branch: "main", trigger: "ci" as const, testbed: "e2e-testbed" },
  results: [
    {
      benchmark: "cloud",
      parameters: {},
      metrics: [{ name: "hit_rate_pct", unit: "%", direction: "higher_is_better" as const, value: hit }],
    },
  ],
});

test("a percentage over 100 is refused and never plotted", async ({ page, bench }) => {
  const slug = uniqueSlug("bounds");
  for (let i = 0; i < 3; i++) await bench.upload(doc(slug, i, 99.5 + i * 0.1));
  const refused = bench.upload(doc(slug, 3, 101.1));
  await expect(refused).rejects.toThrow(/upload failed \(422\)/);
  await expect(refused).rejects.toThrow(
    /results\[0\]\.metrics\[0\] \(cloud hit_rate_pct\): 101\.1 % is outside/,
  );
  const runs = await bench.get<{ total: number }>(`/api/v1/runs?system=${slug}`);
  expect(runs.total).toBe(3);

  await page.goto(`/systems/${slug}`);
  const chart = page.getByTestId("trend-chart").first();
  await expect(chart).toHaveAttribute("data-points", "3");
  await expect(page.getByTestId("series-foot").first()).toContainText("3 runs");
});

test("an admin edits a metric's range: audited with who and when, enforced on the next upload", async ({
  page,
  signIn,
  bench,
}) => {
  const slug = uniqueSlug("bounds-admin");
  await bench.registerManifest(slug, {
    name: slug,
    metrics: [{ name: "hit_rate_pct", unit: "%", direction: "higher_is_better", warn: 5, fail: 10 }],
  });
  await bench.upload(doc(slug, 0, 60));
  await signIn(`/admin?tab=thresholds&system=${slug}`);
  const row = page.locator('[data-testid="threshold-row"][data-metric="hit_rate_pct"]');
  const save = row.getByRole("button", { name: "Save range" });
  await expect(row.getByLabel("min of hit_rate_pct")).toHaveValue("0");
  await expect(row.getByLabel("max of hit_rate_pct")).toHaveValue("100");
  await expect(save).toBeDisabled(); // nothing changed yet
  await row.getByLabel("min of hit_rate_pct").fill("90");
  await row.getByLabel("max of hit_rate_pct").fill("50");
  await expect(save).toBeDisabled(); // min above max
  await expect(row).toContainText("min ≤ max");
  await row.getByLabel("min of hit_rate_pct").fill("50");
  await row.getByLabel("max of hit_rate_pct").fill("99");
  await save.click();
  await expect(row.getByTestId("threshold-audit")).toContainText(/user:.+ \(range\)/);
  await expect(save).toBeDisabled();
  await page.reload();
  await expect(row.getByLabel("min of hit_rate_pct")).toHaveValue("50");
  await expect(row.getByLabel("max of hit_rate_pct")).toHaveValue("99");

  // The next upload outside the new range is refused; one inside lands.
  await expect(bench.upload(doc(slug, 1, 99.5))).rejects.toThrow(/\(422\).*between 50 and 99/);
  await bench.upload(doc(slug, 2, 70));
  const runs = await bench.get<{ total: number }>(`/api/v1/runs?system=${slug}`);
  expect(runs.total).toBe(2);
});
