// A real benchdash API on a scratch PostgreSQL database, and a real runner agent, for the e2e.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startGroup, type Started } from "./processes";

const run = promisify(execFile);
export const ROOT = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..", "..", "..");
const VENV = path.join(ROOT, ".venv", "bin");
export const SERVER_CLI = process.env.BENCHDASH_SERVER ?? path.join(VENV, "benchdash-server");
export const PYTHON = path.join(VENV, "python");
const RUNNER_CLI = path.join(VENV, "benchdash-runner");

/** Where this e2e run keeps the API's and agents' logs (global setup picks it, workers inherit it). */
export function logDir(): string {
  process.env.BENCHDASH_E2E_LOGS ??= mkdtempSync(path.join(tmpdir(), "benchdash-e2e-"));
  mkdirSync(process.env.BENCHDASH_E2E_LOGS, { recursive: true });
  return process.env.BENCHDASH_E2E_LOGS;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** Run the server CLI to completion; its last line of output. */
export async function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const { stdout } = await run(SERVER_CLI, args, { env: { ...process.env, ...env }, maxBuffer: 16 << 20 });
  return stdout.trim().split("\n").pop() ?? "";
}

export async function waitFor(what: string, proc: Started, logFile: string, ready: () => Promise<boolean>) {
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (proc.exitCode() !== null)
      throw new Error(`the ${what} exited early (${proc.exitCode()}); see ${logFile}`);
    if (await ready().catch(() => false)) return;
    if (Date.now() > deadline) {
      await proc.stop();
      throw new Error(`the ${what} was not ready within 90 s; see ${logFile}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

export interface Server {
  baseUrl: string;
  databaseUrl: string;
  stop: () => Promise<void>;
}

/** Migrate a fresh scratch database and serve the API and the built UI on a free port. */
export async function startServer(opts: {
  database: string;
  dist: string;
  admin: { username: string; password: string };
  /** More settings (e.g. BENCHDASH_OIDC_*), and the log's name (default api). */
  env?: NodeJS.ProcessEnv;
  name?: string;
}): Promise<Server> {
  const databaseUrl = await cli(["scratch-db", opts.database]);
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    BENCHDASH_ADMIN_USERNAME: opts.admin.username,
    BENCHDASH_ADMIN_PASSWORD: opts.admin.password,
    BENCHDASH_FRONTEND_DIST: opts.dist,
    BENCHDASH_NOTIFY_ALLOW_PRIVATE: "1", // the notification specs' receivers listen on 127.0.0.1
    BENCHDASH_SMTP_HOST: "127.0.0.1", // e-mail subscriptions are refused without an SMTP server
    ...opts.env,
  };
  await cli(["migrate"], env);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const logFile = path.join(logDir(), `${opts.name ?? "api"}.log`);
  const proc = startGroup(
    SERVER_CLI,
    ["serve", "--host", "127.0.0.1", "--port", String(port), "--no-migrate"],
    env,
    logFile,
  );
  await waitFor("API", proc, logFile, async () => (await fetch(`${baseUrl}/readyz`)).ok);
  return { baseUrl, databaseUrl, stop: () => proc.stop() };
}

/** Start a real runner agent (`benchdash-runner`) for `system`, with a token of its own. */
export async function startAgent(baseUrl: string, databaseUrl: string, system: string): Promise<Started> {
  const scopes = ["agent", "upload", "trigger"].flatMap((scope) => ["--scope", scope]);
  const token = await cli(["token", "create", ...scopes, "--name", "e2e agent"], {
    DATABASE_URL: databaseUrl,
  });
  // The repository the agent checks refs out of: this one, unless BENCHDASH_E2E_AGENT_REPO names another.
  const repo = process.env.BENCHDASH_E2E_AGENT_REPO ?? ROOT;
  const workdir = path.join(repo, ".data", "e2e-agent");
  mkdirSync(workdir, { recursive: true });
  const logFile = path.join(logDir(), `agent-${system}.log`);
  const args = [
    "--system",
    system,
    "--repo",
    repo,
    "--api",
    baseUrl,
    "--workdir",
    workdir,
    "--host-id",
    "e2e-host",
  ];
  // The agent asks the API for work: it gets its token, never the database URL.
  const env: NodeJS.ProcessEnv = { ...process.env, BENCHDASH_TOKEN: token, BENCHDASH_SELFTEST_S: "0.4" };
  delete env.DATABASE_URL;
  const agent = startGroup(RUNNER_CLI, args, env, logFile);
  await waitFor("agent", agent, logFile, async () => {
    const r = await fetch(`${baseUrl}/api/v1/systems/${system}`);
    return r.ok && Object.keys(((await r.json()) as { profiles?: object }).profiles ?? {}).length > 0;
  });
  return agent;
}
