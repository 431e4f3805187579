import { expect, test } from "../support/fixtures";
import { uniqueSlug } from "../support/bench";

test.describe("runs without an agent", () => {
  test("a run queued for a system with no agent online says so while it waits", async ({
    page,
    signIn,
    bench,
  }) => {
    const slug = uniqueSlug("lonely");
    await bench.registerManifest(slug, { name: slug, language: "Go" }); // registered, no agent runs
    await signIn(`/systems/${slug}`);
    await page.getByRole("button", { name: "Run benchmarks" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel(/^Ref/).fill("HEAD");
    await dialog.getByRole("button", { name: "Start run" }).click();
    await expect(page).toHaveURL(/\/runs\/\d+$/);
    const banner = page.getByTestId("no-agent");
    await expect(banner).toContainText(`no runner agent of ${slug} is online`);
    await expect(banner).toContainText(`benchdash-runner --system ${slug}`);
    const runId = Number(page.url().split("/").pop());
    const run = await bench.get<{ status: string }>(`/api/v1/runs/${runId}`);
    expect(run.status).toBe("queued");
  });
});
