// Responsive layout (issue 40): at a phone's 390 px and a laptop's 1366 px every main page is no
// wider than the viewport, the nav is reachable (a "Menu" button on the phone) and the sticky areas
// (top bar, the system page's compact filter bar) take at most 20 % of the viewport's height.
import { history, uniqueSlug, type SeriesSpec } from "../support/bench";
import { expect, test, type Page } from "../support/fixtures";

const SIZES = [
  { width: 390, height: 844, phone: true },
  { width: 1366, height: 768, phone: false },
];

const series = (): SeriesSpec[] =>
  ["encode", "decode", "parse", "render"].map((benchmark) => ({
    benchmark,
    metric: "time",
    unit: "ns",
    direction: "lower_is_better",
    values: history(10, 500, benchmark === "encode" ? 15 : 0),
  }));

async function stickyHeight(page: Page): Promise<number> {
  return page.evaluate(() => {
    let total = 0;
    for (const el of document.querySelectorAll("body *")) {
      const position = getComputedStyle(el).position;
      if (position !== "sticky" && position !== "fixed") continue;
      total += el.getBoundingClientRect().height;
    }
    return total;
  });
}

async function checkPage(page: Page, phone: boolean, height: number) {
  await expect(page.locator("main")).toBeVisible();
  await page.waitForLoadState("networkidle");
  const [scrollWidth, innerWidth] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    window.innerWidth,
  ]);
  expect(scrollWidth, "page wider than the viewport").toBeLessThanOrEqual(innerWidth);
  await page.mouse.wheel(0, 1200);
  await page.waitForTimeout(300); // let the scroll settle (IntersectionObserver callbacks)
  expect(await stickyHeight(page), "sticky areas taller than 20 % of the viewport").toBeLessThanOrEqual(
    height * 0.2,
  );
  const menu = page.getByRole("button", { name: "Menu" });
  const nav = page.getByRole("navigation", { name: "Main" });
  const alerts = nav.getByRole("link", { name: "Alerts" });
  if (phone) {
    await expect(alerts).toBeHidden();
    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await expect(alerts).toBeVisible();
    await expect(nav.getByRole("link", { name: "Compare" })).toBeVisible();
  } else {
    await expect(menu).toBeHidden();
    await expect(alerts).toBeVisible();
  }
}

for (const size of SIZES) {
  test.describe(`at ${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test("overview, system, run, alerts, compare, admin fit and keep the nav reachable", async ({
      page,
      bench,
      signIn,
    }) => {
      const slug = uniqueSlug("resp");
      const runs = await bench.seedRuns(slug, series());
      const [base, head] = [runs[3]!.run, runs.at(-1)!.run];
      const pages = [
        "/",
        `/systems/${slug}`,
        `/runs/${head.id}`,
        `/alerts?system=${slug}`,
        `/compare?system=${slug}&base=${base.id}&head=${head.id}`,
      ];
      for (const path of pages) {
        await page.goto(path);
        await checkPage(page, size.phone, size.height);
      }
      await signIn("/admin?tab=tokens");
      await checkPage(page, size.phone, size.height);
      if (size.phone) {
        // Following a link closes the menu.
        await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Overview" }).click();
        await expect(page.getByRole("button", { name: "Menu" })).toHaveAttribute("aria-expanded", "false");
      }
    });
  });
}

test.describe("the system page's filters at 390 px", () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test("collapse to a compact sticky bar that opens on demand", async ({ page, bench }) => {
    const slug = uniqueSlug("resp");
    await bench.seedRuns(slug, series());
    await page.goto(`/systems/${slug}`);
    const bar = page.getByTestId("filter-bar");
    await expect(page.getByLabel("Branch")).toBeVisible();
    await expect(bar).toBeHidden();
    await page.mouse.wheel(0, 1500);
    await expect(bar).toBeVisible();
    await expect(bar).toContainText("main");
    const toggle = bar.getByRole("button", { name: "Filters" });
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await expect(bar.getByLabel("Branch")).toBeVisible();
  });
});
