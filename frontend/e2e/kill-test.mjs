// Kill the e2e run half-way, three ways, and check in /proc that nothing it started survives:
// no API (`benchdash-server`), no runner agent, no browser, no guard.
//   node e2e/kill-test.mjs
// Every process the run starts inherits BENCHDASH_E2E_MARK=<a fresh uuid> from it, so the check
// finds them whatever their parent, group or session, and never confuses them with anyone else's.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";

const FRONTEND = fileURLToPath(new URL("..", import.meta.url));
const CLI = path.join(FRONTEND, "node_modules", "@playwright", "test", "cli.js");
// The embedded PostgreSQL the backend starts on demand is shared by every later command and left
// running on purpose; it is the only process a run may leave behind.
const SHARED_DATABASE = /pgserver\/pginstall\/bin\/postgres|^postgres: /;

/** Processes whose environment carries this mark: [{ pid, cmd }]. */
function marked(mark) {
  const needle = `BENCHDASH_E2E_MARK=${mark}`;
  const found = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/environ`, "latin1").split("\0").includes(needle)) continue;
      const cmd = readFileSync(`/proc/${entry}/cmdline`, "latin1").split("\0").join(" ").trim();
      const state = readFileSync(`/proc/${entry}/stat`, "latin1").split(") ")[1]?.[0];
      if (state !== "Z" && !SHARED_DATABASE.test(cmd)) found.push({ pid: Number(entry), cmd });
    } catch {
      /* gone meanwhile, or not ours to read */
    }
  }
  return found;
}

async function until(what, predicate, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = predicate();
    if (value) return value;
    await sleep(200);
  }
  throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
}

/**
 * Start `playwright test specs…`, wait until a process matching `ready` (a marked command line)
 * exists, kill the run with `kill(runner)`, then require every marked process to be gone.
 */
async function scenario({ name, specs, ready, kill }) {
  const mark = randomUUID();
  const output = mkdtempSync(path.join(tmpdir(), "benchdash-kill-test-"));
  const runner = spawn(process.execPath, [CLI, "test", "--reporter=line", "--output", output, ...specs], {
    cwd: FRONTEND,
    env: { ...process.env, BENCHDASH_E2E_MARK: mark, BENCHDASH_E2E_DB: "benchdash_e2e_kill" },
    detached: true, // its own process group, so a group-wide Ctrl-C reaches it and not us
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  runner.stdout.on("data", (d) => (log += d));
  runner.stderr.on("data", (d) => (log += d));
  const abort = () => process.kill(-runner.pid, "SIGKILL"); // this test interrupted: its guard cleans up
  process.once("SIGINT", abort).once("SIGTERM", abort);
  const exited = new Promise((resolve) => runner.on("exit", (code, signal) => resolve(signal ?? code)));
  const started = Date.now();
  try {
    const hit = await until(
      `a process matching ${ready}`,
      () => marked(mark).find((p) => ready.test(p.cmd)),
      240_000,
    );
    const before = marked(mark);
    const api = before.filter((p) => /benchdash-server serve/.test(p.cmd)).length;
    kill(runner);
    const how = await Promise.race([exited, sleep(60_000).then(() => "still running after 60 s")]);
    const left = await until(
      "every process of the run to end",
      () => marked(mark).length === 0 || null,
      20_000,
    ).then(
      () => [],
      () => marked(mark),
    );
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (left.length) {
      for (const p of left) {
        try {
          process.kill(p.pid, "SIGKILL");
        } catch {
          /* already gone */
        }
      }
      throw new Error(
        `${name}: ${left.length} process(es) survived:\n${left.map((p) => `  ${p.pid} ${p.cmd}`).join("\n")}\n--- run output ---\n${log}`,
      );
    }
    if (api === 0) throw new Error(`${name}: the run's API was not up when killed\n${log}`);
    console.log(
      `ok   ${name}: killed once "${hit.cmd.slice(0, 60)}" was up (${before.length} processes of the run, ` +
        `API included); runner ended by ${how}; none left after ${seconds} s`,
    );
  } finally {
    process.off("SIGINT", abort).off("SIGTERM", abort);
    try {
      process.kill(-runner.pid, "SIGKILL");
    } catch {
      /* ended */
    }
    rmSync(output, { recursive: true, force: true });
  }
}

const ALL = [
  {
    name: "SIGKILL of the runner while the agent is up",
    specs: ["e2e/specs/runs.spec.ts"],
    ready: /benchdash-runner --system selftest/,
    kill: (runner) => runner.kill("SIGKILL"),
  },
  {
    name: "Ctrl-C (SIGINT to the runner's process group) while Chromium runs a spec",
    specs: ["e2e/specs/overview.spec.ts", "e2e/specs/run.spec.ts"],
    ready: /chromium/,
    kill: (runner) => process.kill(-runner.pid, "SIGINT"),
  },
  {
    name: "SIGTERM of the runner while Chromium runs a spec",
    specs: ["e2e/specs/overview.spec.ts", "e2e/specs/run.spec.ts"],
    ready: /chromium/,
    kill: (runner) => runner.kill("SIGTERM"),
  },
];

// `node e2e/kill-test.mjs 3` runs the third scenario only.
const only = Number(process.argv[2]);
const scenarios = only ? [ALL[only - 1]] : ALL;

let failed = 0;
for (const s of scenarios) {
  try {
    await scenario(s);
  } catch (e) {
    failed++;
    console.log(`FAIL ${String(e?.message ?? e)}`);
  }
}
console.log(`kill-test: ${scenarios.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
