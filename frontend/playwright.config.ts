// End-to-end tests: headless Debian Chromium against one real API on a scratch PostgreSQL
// database (e2e/support/global-setup.ts). Every spec seeds its own data through the API.
import { defineConfig } from "@playwright/test";
import { CHROMIUM, CHROMIUM_ARGS } from "./e2e/support/browser";

const screenshots = process.env.BENCHDASH_SCREENSHOTS === "1";

export default defineConfig({
  globalSetup: "./e2e/support/global-setup.ts",
  // One worker: the machine has 2 cores, and the paint figures should not share them with a second browser.
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  outputDir: "test-results",
  reporter: [["list"], ["./e2e/support/paint-reporter.ts"]],
  use: {
    browserName: "chromium",
    headless: true,
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
    viewport: { width: 1440, height: 1000 },
    deviceScaleFactor: 1,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: screenshots
    ? [{ name: "docs", testDir: "e2e/screenshots" }]
    : [{ name: "e2e", testDir: "e2e/specs" }],
});
