// Global setup: one API process on a scratch database for the whole run; its teardown stops it.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { CHROMIUM } from "./browser";
import type { FullConfig } from "@playwright/test";
import { cli, logDir, ROOT, startServer } from "./server";

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  // Logs go beside the test results, which Playwright clears at the start of the next run.
  process.env.BENCHDASH_E2E_LOGS ??= path.join(config.projects[0]?.outputDir ?? ROOT, "logs");
  const dist = path.join(ROOT, "frontend", "dist");
  if (!existsSync(path.join(dist, "index.html")))
    throw new Error(`no built UI in ${dist}: run \`npx vite build\` first (\`make -C frontend e2e\` does)`);
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: run \`apt-get install chromium\` (or set CHROMIUM=/path)`);
  // Generated per run, never committed.
  const admin = { username: "admin", password: randomBytes(12).toString("hex") };
  const server = await startServer({
    database: process.env.BENCHDASH_E2E_DB ?? "benchdash_e2e",
    dist,
    admin,
  });
  try {
    // `make screenshots` pictures the demo history; the e2e specs seed their own data.
    if (process.env.BENCHDASH_SCREENSHOTS === "1") await cli(["demo"], { DATABASE_URL: server.databaseUrl });
    // Uploads, and manifests (agent scope) for the specs that need a headline or a language.
    const token = await cli(
      ["token", "create", "--scope", "upload", "--scope", "agent", "--name", "e2e seeding"],
      {
        DATABASE_URL: server.databaseUrl,
      },
    );
    Object.assign(process.env, {
      BENCHDASH_E2E_BASE_URL: server.baseUrl,
      BENCHDASH_E2E_DATABASE_URL: server.databaseUrl,
      BENCHDASH_E2E_TOKEN: token,
      BENCHDASH_E2E_ADMIN: JSON.stringify(admin),
    });
  } catch (e) {
    await server.stop();
    throw e;
  }
  console.log(`e2e: API on ${server.baseUrl}, logs in ${logDir()}`);
  return server.stop;
}
