// The e2e's test object: a page that fails the test on any uncaught error, dialog or
// Content-Security-Policy violation, the API seeding helper, the admin's credentials and a
// sign-in step.
import { test as base, expect, type Page } from "@playwright/test";
import { Bench } from "./bench";
import { watchViolations, type CspWatch } from "./csp";

function env(name: string): string {
  const value = process.env[name];
  if (!value)
    throw new Error(`${name} is not set: run the e2e through \`npx playwright test\` (global setup sets it)`);
  return value;
}

export interface Fixtures {
  bench: Bench;
  admin: { username: string; password: string };
  databaseUrl: string;
  /** The CSP violations `page` met so far (the test fails at its end unless there are none). */
  csp: CspWatch;
  /** Sign in through the UI as the admin, then come back to `next`. */
  signIn: (next: string) => Promise<void>;
}

export const test = base.extend<Fixtures>({
  baseURL: async ({}, use) => use(env("BENCHDASH_E2E_BASE_URL")),
  bench: async ({}, use) => use(new Bench(env("BENCHDASH_E2E_BASE_URL"), env("BENCHDASH_E2E_TOKEN"))),
  admin: async ({}, use) => use(JSON.parse(env("BENCHDASH_E2E_ADMIN")) as Fixtures["admin"]),
  databaseUrl: async ({}, use) => use(env("BENCHDASH_E2E_DATABASE_URL")),
  csp: async ({}, use) => use({ events: [], messages: [] }),
  page: async ({ page, csp }, use) => {
    await watchViolations(page, csp);
    const errors: string[] = [];
    const dialogs: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await use(page);
    expect(errors, "uncaught errors in the page").toEqual([]);
    expect(dialogs, "dialogs the page opened").toEqual([]);
    expect(csp.events, "Content-Security-Policy violations").toEqual([]);
    expect(csp.messages, "Content-Security-Policy reports in the console").toEqual([]);
  },
  signIn: async ({ page, admin }, use) => {
    await use(async (next: string) => {
      await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
      await page.getByLabel("User name").fill(admin.username);
      await page.getByLabel("Password").fill(admin.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL((url) => url.pathname + url.search === next);
    });
  },
});

export { expect, type Page };
