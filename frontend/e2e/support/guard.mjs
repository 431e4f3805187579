// The guard of the processes an e2e process starts: it outlives its parent (own session) and,
// when the parent goes away for any reason (exit, Ctrl-C, SIGTERM, even SIGKILL), stops every
// process group the parent registered. The parent writes "+<pgid>" / "-<pgid>" lines on our stdin;
// the end of stdin (or the parent's pid disappearing) means the parent is gone.
//   node guard.mjs <parent-pid>
import { setTimeout as sleep } from "node:timers/promises";

const parent = Number(process.argv[2]);
const groups = new Set();
let buffered = "";
let stopping = false;

const alive = (pgid) => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
};
const signal = (pgid, sig) => {
  try {
    process.kill(-pgid, sig);
  } catch {
    /* the group is gone */
  }
};

async function stopAll() {
  if (stopping) return;
  stopping = true;
  for (const g of groups) signal(g, "SIGTERM");
  const deadline = Date.now() + 8000;
  while ([...groups].some(alive) && Date.now() < deadline) await sleep(100);
  for (const g of groups) if (alive(g)) signal(g, "SIGKILL");
  process.exit(0);
}

process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffered += chunk;
  const lines = buffered.split("\n");
  buffered = lines.pop() ?? "";
  for (const line of lines) {
    const pgid = Number(line.slice(1));
    if (!Number.isInteger(pgid) || pgid <= 1) continue;
    if (line.startsWith("+")) groups.add(pgid);
    else if (line.startsWith("-")) groups.delete(pgid);
  }
});
process.stdin.on("end", () => void stopAll());
process.stdin.on("error", () => void stopAll());
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(sig, () => void stopAll());
setInterval(() => {
  try {
    process.kill(parent, 0);
  } catch {
    void stopAll();
  }
}, 1000);
