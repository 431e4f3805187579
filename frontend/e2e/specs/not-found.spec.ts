// A 404 is a page: a heading saying what is not there and a way back, never "Try again".
import { expect, test } from "../support/fixtures";

const CASES = [
  {
    path: "/systems/e2e-no-such-system",
    heading: "System e2e-no-such-system not found",
    back: "Back to the overview",
    to: "/",
  },
  { path: "/runs/2000000000", heading: "Run #2000000000 not found", back: "Back to the runs", to: "/runs" },
  {
    path: "/compare?system=e2e-no-such-system&base=2000000000&head=1999999999",
    heading: "Run #2000000000 or #1999999999 not found",
    back: "Pick two other runs",
    to: "/compare",
  },
];

test.describe("not found", () => {
  for (const c of CASES) {
    test(`${c.path.split("?")[0]}: a heading and a way back, no "Try again"`, async ({ page }) => {
      await page.goto(c.path);
      const state = page.getByTestId("not-found");
      await expect(state.getByRole("heading", { level: 1 })).toHaveText(c.heading);
      await expect(page.getByRole("button", { name: "Try again" })).toHaveCount(0);
      await state.getByRole("link", { name: c.back }).click();
      await expect(page).toHaveURL((url) => url.pathname === c.to);
    });
  }
});
