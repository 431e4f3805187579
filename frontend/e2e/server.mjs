// Starts a real benchdash API on a fresh scratch PostgreSQL database, loaded with the demo data.
import { execFile, spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, "..", "..");
const cli = path.join(root, ".venv", "bin", "benchdash-server");
const python = path.join(root, ".venv", "bin", "python");
export const ADMIN = { username: "admin", password: "e2e-admin-pass" };

async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function cmd(args, env = {}) {
  const { stdout } = await run(cli, args, { env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
  return stdout.trim();
}

/** Run a Python snippet with the backend's venv (SQLAlchemy + psycopg) against the scratch database. */
export async function py(code, env = {}) {
  const { stdout } = await run(python, ["-c", code], {
    env: { ...process.env, ...env },
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout.trim();
}

/** Spawn a long-running process in its own group; resolve once `ready()` says so. */
async function startProcess(what, command, args, env, ready) {
  const proc = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let log = "";
  proc.stdout.on("data", (d) => (log += d));
  proc.stderr.on("data", (d) => (log += d));
  const stop = () => {
    try {
      process.kill(-proc.pid, "SIGTERM");
    } catch {
      /* already gone */
    }
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the ${what} exited early (${proc.exitCode}):\n${log}`);
    try {
      if (await ready()) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      stop();
      throw new Error(`the ${what} was not ready within 60 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { stop, log: () => log };
}

export async function startServer({
  database = "benchdash_e2e",
  dist = path.join(root, "frontend", "dist"),
} = {}) {
  const databaseUrl = (await cmd(["scratch-db", database])).split("\n").pop();
  const env = { DATABASE_URL: databaseUrl };
  await cmd(["migrate"], env);
  await cmd(["demo"], env);
  const token = (
    await cmd(["token", "create", "--system", "uvhttp", "--system", "perf10k", "--scope", "upload"], env)
  )
    .split("\n")
    .pop();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const { stop, log } = await startProcess(
    "API",
    cli,
    ["serve", "--host", "127.0.0.1", "--port", String(port), "--no-migrate"],
    {
      ...env,
      BENCHDASH_ADMIN_USERNAME: ADMIN.username,
      BENCHDASH_ADMIN_PASSWORD: ADMIN.password,
      BENCHDASH_FRONTEND_DIST: dist,
    },
    async () => (await fetch(`${baseUrl}/readyz`)).ok,
  );
  return { baseUrl, databaseUrl, token, stop, log };
}

/** Start a real runner agent (`benchdash-runner`) for `system` against this API's database. */
export async function startAgent({ baseUrl, databaseUrl }, system = "selftest") {
  const env = { DATABASE_URL: databaseUrl };
  const token = (
    await cmd(["token", "create", "--scope", "upload", "--scope", "trigger", "--name", "e2e agent"], env)
  )
    .split("\n")
    .pop();
  const runner = path.join(root, ".venv", "bin", "benchdash-runner");
  const workdir = path.join(root, ".data", "e2e-agent");
  const agent = await startProcess(
    "agent",
    runner,
    ["--system", system, "--repo", root, "--api", baseUrl, "--workdir", workdir, "--host-id", "e2e-host"],
    { ...env, BENCHDASH_TOKEN: token, BENCHDASH_SELFTEST_S: "0.4" },
    async () => {
      const r = await fetch(`${baseUrl}/api/v1/systems/${system}`);
      return r.ok && Object.keys((await r.json()).profiles ?? {}).length > 0;
    },
  );
  await new Promise((r) => setTimeout(r, 1000)); // let its worker start listening
  return agent;
}
