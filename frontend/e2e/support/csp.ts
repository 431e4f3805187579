// Content-Security-Policy violations of a page, caught twice: the documents'
// `securitypolicyviolation` events (reported by a script Playwright injects before any of the
// page's own, across navigations) and Chromium's console reports ("Refused to … because it
// violates the following Content Security Policy directive").
import type { Page } from "@playwright/test";

export interface Violation {
  directive: string;
  blocked: string;
  source: string;
}

export interface CspWatch {
  /** `securitypolicyviolation` events of every document the page loaded. */
  events: Violation[];
  /** Chromium's console reports of refused content. */
  messages: string[];
}

/** Record every CSP violation of `page` from here on. */
export async function watchViolations(
  page: Page,
  watch: CspWatch = { events: [], messages: [] },
): Promise<CspWatch> {
  page.on("console", (m) => {
    if (/Content[ -]Security[ -]Policy/i.test(m.text())) watch.messages.push(m.text());
  });
  await page.exposeFunction("__reportCspViolation", (v: Violation) => watch.events.push(v));
  await page.addInitScript(() => {
    const report = (window as unknown as { __reportCspViolation: (v: Violation) => void })
      .__reportCspViolation;
    document.addEventListener("securitypolicyviolation", (e) =>
      report({
        directive: e.violatedDirective,
        blocked: e.blockedURI,
        source: `${e.sourceFile}:${e.lineNumber}`,
      }),
    );
  });
  return watch;
}
