// Badges and chart images for READMEs and pull requests: the browser loads each as an <img> from
// the app's origin (under the page's Content-Security-Policy) and draws it.
import { history, stepHistory, uniqueSlug, type SeriesSpec } from "../support/bench";
import { expect, test, type Page } from "../support/fixtures";

const parse = (values: number[]): SeriesSpec[] => [
  { benchmark: "parse", metric: "time", unit: "ns", direction: "lower_is_better", values },
];

/** Add an <img> of `src` to the page and wait until it loaded or failed; its natural size. */
async function imageSize(page: Page, src: string) {
  return page.evaluate(
    (url) =>
      new Promise<{ width: number; height: number; loaded: boolean }>((resolve) => {
        const img = document.createElement("img");
        const done = (loaded: boolean) =>
          resolve({ width: img.naturalWidth, height: img.naturalHeight, loaded });
        img.onload = () => done(true);
        img.onerror = () => done(false);
        img.alt = url;
        img.src = url;
        document.body.append(img);
      }),
    src,
  );
}

test.describe("badges and chart images", () => {
  test("a system's badge and a series' trend image render in the browser", async ({ page, bench }) => {
    const regressed = uniqueSlug("badge");
    const steady = uniqueSlug("badge");
    // A lasting 25 % step: confirmed, one alert; the other system stays level.
    await bench.seedRuns(regressed, parse(stepHistory(12, 1000, 25, 4)));
    await bench.seedRuns(steady, parse(history(16, 500))); // judged: past its learning runs

    await page.goto("/");
    const badge = `/api/v1/badges/${regressed}.svg?branch=main`;
    const answer = await page.request.get(badge);
    expect(answer.status()).toBe(200);
    expect(answer.headers()["content-type"]).toBe("image/svg+xml");
    expect(answer.headers()["cache-control"]).toBe("public, max-age=300");
    expect(await answer.text()).toContain(">1 regression<");
    expect(await (await page.request.get(`/api/v1/badges/${steady}.svg`)).text()).toContain(">ok<");

    const drawn = await imageSize(page, badge);
    expect(drawn.loaded).toBe(true);
    expect(drawn.width).toBeGreaterThan(0);
    expect(drawn.height).toBe(20);
    await expect(page.getByAltText(badge)).toBeVisible();

    const series = `system=${regressed}&benchmark=parse&metric=time&branch=main`;
    for (const format of ["svg", "png"]) {
      const image = await imageSize(page, `/api/v1/series/image.${format}?${series}`);
      expect(image, format).toEqual({ width: 640, height: 240, loaded: true });
    }
    const svg = await (await page.request.get(`/api/v1/series/image.svg?${series}`)).text();
    expect(svg).toContain(`${regressed} · parse · time (ns)`);
    expect(svg).toContain("fail step");
  });

  test("an unknown system still shows a grey 'no data' badge", async ({ page }) => {
    await page.goto("/");
    const missing = `/api/v1/badges/${uniqueSlug("nobody")}.svg`;
    const answer = await page.request.get(missing);
    expect(answer.status()).toBe(200);
    expect(await answer.text()).toContain(">no data<");
    const drawn = await imageSize(page, missing);
    expect(drawn.width).toBeGreaterThan(0);
  });
});
