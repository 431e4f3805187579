import { stepHistory, uniqueSlug } from "../support/bench";
import { expect, test } from "../support/fixtures";

test.describe("alerts", () => {
  test("a confirmed step opens an alert; signing in from it and acknowledging moves it to acknowledged", async ({
    page,
    bench,
    admin,
  }) => {
    const slug = uniqueSlug("alerts");
    const runs = await bench.seedRuns(slug, [
      {
        benchmark: "query",
        parameters: { rows: 1000 },
        metric: "latency",
        unit: "ms",
        direction: "lower_is_better",
        // 12 steady runs, then 4 runs 20 % slower: a step, confirmed once it has held.
        values: stepHistory(12, 12, 20, 4),
      },
    ]);
    const firstBad = runs[12]!.run;
    expect(runs[12]!.verdicts[0]!.level).toBe("fail");

    await page.goto(`/alerts?system=${slug}`);
    const open = page.getByTestId("alerts-open").getByTestId("alert");
    await expect(open).toHaveCount(1);
    await expect(open).toContainText(slug);
    await expect(open).toContainText("query");
    await expect(open).toContainText("rows=1000");
    await expect(open).toContainText("latency");
    await expect(open).toContainText(
      /from run #\d+ \(\w+\) on; last good run #\d+ \(\w+\): confirmed by .*; warn floor 5 %\./,
    );
    await expect(open.getByRole("link", { name: new RegExp(`#${firstBad.id}`) })).toHaveAttribute(
      "href",
      `/runs/${firstBad.id}`,
    );
    // The alert links the compare of its last good run with its first bad one.
    const lastGood = runs[11]!.run;
    await expect(open.getByTestId("alert-compare")).toHaveAttribute(
      "href",
      `/compare?system=${slug}&base=${lastGood.id}&head=${firstBad.id}`,
    );
    // The first bad run's page links its alert.
    const alertId = await open.getAttribute("data-alert-id");
    await page.goto(`/runs/${firstBad.id}`);
    const runAlert = page.getByTestId("run-alert");
    await expect(runAlert).toHaveCount(1);
    await expect(runAlert).toHaveAttribute("data-alert-id", alertId!);
    await expect(runAlert).toContainText("latency");
    await page.goto(`/alerts?system=${slug}`);
    await expect(page.getByTestId("alerts-acknowledged").getByTestId("alert")).toHaveCount(0);
    const id = await open.getAttribute("data-alert-id");

    await open.getByRole("link", { name: "Sign in to acknowledge" }).click();
    await expect(page).toHaveURL(/\/sign-in\?next=/);
    await page.getByLabel("User name").fill(admin.username);
    await page.getByLabel("Password").fill(admin.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(new RegExp(`/alerts\\?system=${slug}$`));

    await open.getByRole("button", { name: "Acknowledge" }).click();
    const acknowledged = page.getByTestId("alerts-acknowledged").locator(`[data-alert-id="${id}"]`);
    await expect(acknowledged).toContainText(/acknowledged now by \S*admin/);
    await expect(page.getByTestId("alerts-open").getByTestId("alert")).toHaveCount(0);

    const stored = await bench.get<{ id: number; status: string; acknowledged_by: string | null }[]>(
      `/api/v1/alerts?system=${slug}&status=acknowledged`,
    );
    expect(stored.map((a) => [String(a.id), a.status])).toEqual([[id, "acknowledged"]]);
    expect(stored[0]!.acknowledged_by).toContain(admin.username);

    // The tabs are permalinks too.
    await page.getByRole("tab", { name: "Resolved" }).click();
    await expect(page).toHaveURL(/status=resolved/);
    await expect(page.getByTestId("alerts-resolved").getByText("No resolved alerts")).toBeVisible();
  });
});
