// Long-running helpers of the e2e (the API, a runner agent) run in their own process group and
// session, registered with a guard process that stops them when this process goes away however it
// goes (see guard.mjs). Normal teardown stops them itself; exit and SIGINT/SIGTERM/SIGHUP do too.
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import type { Socket } from "node:net";
import type { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";

const GUARD = fileURLToPath(new URL("./guard.mjs", import.meta.url));
const groups = new Set<number>();
let guard: ChildProcess | null = null;

function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function stopAllNow(): void {
  for (const pgid of groups) signalGroup(pgid, "SIGTERM");
}

function onSignal(signal: NodeJS.Signals): void {
  stopAllNow();
  // Ctrl-C: the test runner shuts down gracefully by itself. Other signals: die as we would have.
  if (signal !== "SIGINT" && process.listenerCount(signal) === 1) {
    process.off(signal, onSignal);
    process.kill(process.pid, signal);
  }
}

function guardInput(): Writable {
  if (!guard) {
    guard = spawn(process.execPath, [GUARD, String(process.pid)], {
      detached: true,
      stdio: ["pipe", "ignore", "inherit"],
    });
    guard.unref();
    const stdin = guard.stdin as Socket;
    stdin.on("error", () => undefined);
    stdin.unref(); // the guard's pipe must not keep this process alive
    process.on("exit", stopAllNow);
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, onSignal);
  }
  return guard.stdin as Writable;
}

export interface Started {
  pid: number;
  /** Stop the whole group: SIGTERM, then SIGKILL after `graceMs`; resolves once it is gone. */
  stop: (graceMs?: number) => Promise<void>;
  /** The exit code once the group leader has exited, else null. */
  exitCode: () => number | null;
}

/** Start `command` as the leader of a new session and process group, output appended to `logFile`. */
export function startGroup(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  logFile: string,
): Started {
  const input = guardInput();
  const log = openSync(logFile, "a");
  const child = spawn(command, args, { env, detached: true, stdio: ["ignore", log, log] });
  closeSync(log);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start ${command}`);
  groups.add(pid);
  input.write(`+${pid}\n`);
  let code: number | null = null;
  child.on("exit", (c, sig) => (code = c ?? (sig ? 128 : 1)));
  child.unref();
  const stop = async (graceMs = 10_000) => {
    signalGroup(pid, "SIGTERM");
    const deadline = Date.now() + graceMs;
    while (signalGroup(pid, 0) && Date.now() < deadline) await sleep(50);
    if (signalGroup(pid, 0)) signalGroup(pid, "SIGKILL");
    while (signalGroup(pid, 0)) await sleep(20);
    groups.delete(pid);
    input.write(`-${pid}\n`);
  };
  return { pid, stop, exitCode: () => code };
}
