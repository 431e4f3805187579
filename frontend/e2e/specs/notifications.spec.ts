import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { history, uniqueSlug } from "../support/bench";
import { expect, test } from "../support/fixtures";

interface Received {
  delivery: string;
  signature: string;
  body: string;
}

/** A local webhook receiver that records what arrives (the signature is checked by the test) and
 * answers `status()` (200 unless the test says otherwise). */
async function receiver(
  status: () => number = () => 200,
): Promise<{ server: Server; url: string; got: Received[] }> {
  const got: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      got.push({
        delivery: String(req.headers["benchdash-delivery"] ?? ""),
        signature: String(req.headers["benchdash-signature"] ?? ""),
        body: Buffer.concat(chunks).toString("utf8"),
      });
      res.writeHead(status()).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/hook`, got };
}

/** The README's check: HMAC-SHA256 over `t.body`, a recent `t`. */
function verified(secret: string, r: Received): boolean {
  const parts = Object.fromEntries(r.signature.split(",").map((p) => p.split("=", 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isFinite(t) || Math.abs(Date.now() / 1000 - t) > 300) return false;
  const mac = createHmac("sha256", secret).update(`${t}.${r.body}`).digest("hex");
  return mac.length === (parts.v1 ?? "").length && timingSafeEqual(Buffer.from(mac), Buffer.from(parts.v1!));
}

test.describe("notifications", () => {
  test("an admin adds a webhook, sees its secret once, sends a test that arrives signed, reads the log, deletes it", async ({
    page,
    bench,
    signIn,
  }) => {
    const slug = uniqueSlug("notify");
    await bench.seedRuns(slug, [
      {
        benchmark: "get",
        metric: "throughput",
        unit: "req/s",
        direction: "higher_is_better",
        values: history(2, 100),
      },
    ]);
    const hook = await receiver();
    try {
      await signIn("/notifications");
      await expect(page.getByRole("heading", { name: "Notifications" })).toBeVisible();
      const form = page.getByRole("form", { name: "Add a subscription" });
      await form.getByLabel("System").selectOption(slug);
      await form.getByLabel("Channel").selectOption("webhook");
      await form.getByLabel("Name").fill("perf hook");
      await form.getByLabel("Webhook URL").fill(hook.url);
      await form.getByRole("button", { name: "Add subscription" }).click();
      const secretBox = page.getByTestId("signing-secret");
      await expect(secretBox).toContainText("whsec_");
      const secret = (await secretBox.locator("code").textContent())!;

      const item = page.locator("[data-testid^=subscription-]").filter({ hasText: "perf hook" });
      await expect(item).toContainText(`${slug} · every branch`);
      await expect(item).not.toContainText(secret); // shown once, in the form's answer only
      await item.getByRole("button", { name: "Send a test" }).click();
      const row = item.locator("tbody tr").first();
      await expect(row).toContainText("test");
      await expect(row).toContainText("delivered", { timeout: 30_000 });
      await expect(row.locator("td").nth(2)).toHaveText("1");

      expect(hook.got).toHaveLength(1);
      const sent = hook.got[0]!;
      expect(verified(secret, sent)).toBe(true);
      expect(verified("whsec_wrong", sent)).toBe(false);
      const body = JSON.parse(sent.body) as { id: string; event: string; text: string };
      expect(body.id).toBe(sent.delivery);
      expect(await row.getAttribute("data-delivery")).toBe(sent.delivery);
      expect(body.event).toBe("test");
      expect(body.text).toContain("−11.8 % req/s · worse");

      // The page after a reload: the secret is gone for good.
      await page.reload();
      await expect(page.getByTestId("signing-secret")).toHaveCount(0);
      await item.getByRole("button", { name: "Delete" }).click();
      await page
        .getByRole("dialog", { name: "Delete this subscription?" })
        .getByRole("button", { name: "Delete" })
        .click();
      await expect(item).toHaveCount(0);
    } finally {
      hook.server.close();
    }
  });

  test("a webhook that keeps answering 410 is paused with its reason; Resume delivers again", async ({
    page,
    bench,
    signIn,
  }) => {
    const slug = uniqueSlug("pause");
    await bench.seedRuns(slug, [
      {
        benchmark: "get",
        metric: "throughput",
        unit: "req/s",
        direction: "higher_is_better",
        values: history(2, 100),
      },
    ]);
    let answer = 410;
    const hook = await receiver(() => answer);
    try {
      await signIn("/notifications");
      const form = page.getByRole("form", { name: "Add a subscription" });
      await form.getByLabel("System").selectOption(slug);
      await form.getByLabel("Channel").selectOption("webhook");
      await form.getByLabel("Name").fill("gone hook");
      await form.getByLabel("Webhook URL").fill(hook.url);
      await form.getByRole("button", { name: "Add subscription" }).click();
      const item = page.locator("[data-testid^=subscription-]").filter({ hasText: "gone hook" });
      await expect(item).toContainText(`${slug} · every branch`);
      await expect(item.getByRole("button", { name: "Resume" })).toHaveCount(0);

      // Five tests refused for good (410: tried once each) pause it (BENCHDASH_NOTIFY_PAUSE_AFTER 5).
      const rows = item.locator("tbody tr");
      for (let n = 1; n <= 5; n++) {
        await item.getByRole("button", { name: "Send a test" }).click();
        await expect(rows.filter({ hasText: "failed" })).toHaveCount(n, { timeout: 30_000 });
      }
      expect(hook.got).toHaveLength(5);
      await expect(rows.first()).toContainText("HTTP 410 (permanent, not retried)");

      await page.reload(); // the list as it is now
      const reason = item.locator("[data-testid^=paused-]");
      await expect(reason).toContainText("paused after 5 failed deliveries; last: HTTP 410 from 127.0.0.1");
      await expect(item).toContainText("paused");

      answer = 200; // the receiver is fixed; resume, and a test arrives
      await item.getByRole("button", { name: "Resume" }).click();
      await expect(reason).toHaveCount(0);
      await expect(item.getByRole("button", { name: "Resume" })).toHaveCount(0);
      await item.getByRole("button", { name: "Send a test" }).click();
      await expect(rows.first()).toContainText("delivered", { timeout: 30_000 });
      expect(hook.got).toHaveLength(6);
      await page.reload();
      await expect(item.locator("[data-testid^=paused-]")).toHaveCount(0);
      await item.getByRole("button", { name: "Delete" }).click();
      await page
        .getByRole("dialog", { name: "Delete this subscription?" })
        .getByRole("button", { name: "Delete" })
        .click();
      await expect(item).toHaveCount(0);
    } finally {
      hook.server.close();
    }
  });
});
