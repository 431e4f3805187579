"""A demo system for `benchdash_runner.driving`: its manifest, driver and sleeping children.

The driver runs as a real process from a temporary repository root; DEMO_MODE picks what it
does (a normal run, a broken build, a signal while children run, a document the manifest
does not declare).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

MANIFEST = """
system = "demo"
source = "systems/demo"
[driver]
command = ["runners/demo/driver.py"]
[profiles.quick]
repetitions = 2
scenarios = ["alpha", "beta/1", "beta/2"]
[[metrics]]
name = "ops"
unit = "ops/s"
direction = "higher_is_better"
"""

# A child that writes its pid into DIR, says "ready" and sleeps; with a second argument it
# first starts a grandchild like itself (a server that forks).
SLEEPER = """
import os, subprocess, sys, time
if len(sys.argv) > 2:
    subprocess.Popen([sys.executable, __file__, sys.argv[1]])
open(os.path.join(sys.argv[1], str(os.getpid())), "w").close()
print("ready", flush=True)
time.sleep(600)
"""

DRIVER = """
import os, sys, time
from pathlib import Path
from benchdash_runner import document, driving

drv, args = driving.start(Path(__file__).with_name("runner.toml"))
mode = os.environ["DEMO_MODE"]
pids = drv.out / "pids"
pids.mkdir(exist_ok=True)
sleeper = [sys.executable, str(Path(__file__).with_name("sleeper.py")), str(pids)]
drv.phase("building")
drv.build([sys.executable, "-c", "print('compiling demo'); raise SystemExit(MODE == 'broken')"
           .replace("MODE", repr(mode))])
drv.phase("running")
if mode in ("sigterm", "sigkill", "exception"):
    with drv.background([*sleeper, "fork"]):
        def on_line(line):
            while mode == "exception" and len(list(pids.iterdir())) < 3:
                time.sleep(0.01)  # all three sleepers up, then break
            if mode == "exception":
                raise RuntimeError("the driver broke while its children ran")
        drv.run(sleeper, on_line=on_line)
unit = "ms" if mode == "wrong-unit" else "ops/s"
name = "lines" if mode == "undeclared" else "ops"
results = []
for scenario in drv.scenarios:
    drv.progress(scenario)
    samples = [float(i + 1) for i in range(drv.repetitions)]
    metric = document.metric(name, unit, "higher_is_better", samples=samples)
    results.append({"benchmark": scenario, "parameters": {}, "metrics": [metric]})
drv.finish(results, compiler="cpython", compiler_version="3", configuration={"mode": mode})
"""


def make_demo(root: Path) -> Path:
    """Write runners/demo/{runner.toml,driver.py,sleeper.py} and its source folder under root."""
    folder = root / "runners" / "demo"
    folder.mkdir(parents=True)
    (root / "systems" / "demo").mkdir(parents=True)
    (folder / "runner.toml").write_text(MANIFEST)
    (folder / "driver.py").write_text(textwrap.dedent(DRIVER))
    (folder / "sleeper.py").write_text(SLEEPER)
    return root


def start(root: Path, mode: str, *args: str) -> subprocess.Popen[str]:
    """Run the demo driver as the agent would: from the root, in its own session."""
    return subprocess.Popen(
        [sys.executable, "runners/demo/driver.py", "--profile", "quick", "--out", "out", *args],
        cwd=root,
        env={**os.environ, "DEMO_MODE": mode, "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )


def finish(proc: subprocess.Popen[str]) -> tuple[int, str]:
    """Wait for the driver; return its exit code and its whole output."""
    out, _ = proc.communicate(timeout=60)
    return proc.returncode, out


def proc_stat(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the command name: state, ppid, …"""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def alive(pid: int) -> bool:
    """Whether `pid` is a process that still runs (a zombie waiting for its reaper is dead)."""
    try:
        return proc_stat(pid)[0] != "Z"
    except FileNotFoundError:
        return False


def wait_for_pids(root: Path, count: int, proc: subprocess.Popen[str]) -> list[int]:
    """The pids the sleepers wrote, once `count` of them are up."""
    folder = root / "out" / "pids"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        pids = [int(p.name) for p in folder.glob("*")] if folder.exists() else []
        if len(pids) >= count:
            return pids
        assert proc.poll() is None, proc.communicate()[0]
        time.sleep(0.05)
    raise AssertionError(f"the sleepers did not start: {pids}")


def gone(pids: list[int], within: float = 10.0) -> list[int]:
    """The pids still alive after `within` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline and any(alive(p) for p in pids):
        time.sleep(0.05)
    return [p for p in pids if alive(p)]


def kill_leftovers(root: Path) -> list[int]:
    """Kill the sleepers still running under root; return their pids."""
    folder = root / "out" / "pids"
    left = [int(p.name) for p in folder.glob("*") if alive(int(p.name))] if folder.exists() else []
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    return left
