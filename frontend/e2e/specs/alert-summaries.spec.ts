import { stepHistory, uniqueSlug } from "../support/bench";
import { expect, test } from "../support/fixtures";

interface Summary {
  id: number;
  status: string;
  resolution: string | null;
  issue_url: string | null;
  counts: { alerts: number };
}

test("one commit slowing three benchmarks is one summary, triaged as one", async ({
  page,
  bench,
  signIn,
}) => {
  const slug = uniqueSlug("summaries");
  const series = ["parse", "render", "serialize"].map((benchmark) => ({
    benchmark,
    parameters: {},
    metric: "latency",
    unit: "ms",
    direction: "lower_is_better" as const,
    // 12 steady runs, then 4 runs 20 % slower: one step in every series, from the same commit.
    values: stepHistory(12, 12, 20, 4),
  }));
  await bench.seedRuns(slug, series);
  const [stored] = await bench.get<Summary[]>(`/api/v1/alert-summaries?system=${slug}`);
  expect(stored!.counts.alerts).toBe(3);

  await signIn(`/alerts?system=${slug}`);
  const card = page.getByTestId("alert-summaries").getByTestId("alert-summary");
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId("summary-counts")).toHaveText("3 series (3 fail, 0 warn) in 3 benchmarks");
  await expect(card).toContainText("parse");

  await card.getByRole("button", { name: "Acknowledge all" }).click();
  await expect(card).toHaveAttribute("data-status", "acknowledged");
  await expect(page.getByTestId("alerts-open").getByTestId("alert")).toHaveCount(0);
  await expect(page.getByTestId("alerts-acknowledged").getByTestId("alert")).toHaveCount(3);

  // A bad issue URL is refused with words, and nothing changes.
  await card.getByLabel("Issue URL").fill("ftp://tracker.example.test/1");
  await card.getByRole("button", { name: "Link issue" }).click();
  await expect(page.getByText(/http\(s\) URL/)).toBeVisible();
  await card.getByLabel("Issue URL").fill("https://tracker.example.test/issues/7");
  await card.getByRole("button", { name: "Link issue" }).click();
  await expect(card.getByTestId("summary-issue")).toHaveAttribute(
    "href",
    "https://tracker.example.test/issues/7",
  );

  const [after] = await bench.get<Summary[]>(`/api/v1/alert-summaries?system=${slug}`);
  expect([after!.status, after!.issue_url]).toEqual([
    "acknowledged",
    "https://tracker.example.test/issues/7",
  ]);
  const alerts = await bench.get<{ status: string }[]>(`/api/v1/alerts?system=${slug}`);
  expect(alerts.map((a) => a.status)).toEqual(["acknowledged", "acknowledged", "acknowledged"]);
});
