"""`benchdash_runner.driving` for real: a temporary manifest and driver, run as a process."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from benchdash_runner import driving

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


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    """A repository root with runners/demo/{runner.toml,driver.py,sleeper.py} and its source."""
    folder = tmp_path / "runners" / "demo"
    folder.mkdir(parents=True)
    (tmp_path / "systems" / "demo").mkdir(parents=True)
    (folder / "runner.toml").write_text(MANIFEST)
    (folder / "driver.py").write_text(textwrap.dedent(DRIVER))
    (folder / "sleeper.py").write_text(SLEEPER)
    return tmp_path


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


def _stat(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the command name: state, ppid, …"""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def alive(pid: int) -> bool:
    """Whether `pid` is a process that still runs (a zombie waiting for its reaper is dead)."""
    try:
        return _stat(pid)[0] != "Z"
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


@pytest.fixture(autouse=True)
def _no_leftovers(demo: Path) -> object:
    """Whatever a test leaves running is killed and makes it fail."""
    yield
    folder = demo / "out" / "pids"
    left = [int(p.name) for p in folder.glob("*") if alive(int(p.name))] if folder.exists() else []
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"processes left running: {left}"


def test_a_profile_runs_to_a_checked_document(demo: Path) -> None:
    code, out = finish(start(demo, "ok"))
    assert code == 0, out
    lines = out.splitlines()
    assert lines[0] == "##benchdash phase building"
    assert "compiling demo" not in lines  # a build's log is shown when it fails
    progress = [line for line in lines if line.startswith("##benchdash progress")]
    assert progress == [
        "##benchdash progress 1/3 alpha",
        "##benchdash progress 2/3 beta/1",
        "##benchdash progress 3/3 beta/2",
        "##benchdash progress 3/3 done",
    ]
    doc = json.loads((demo / "out" / "result.json").read_text())
    assert doc["system"] == "demo" and doc["run"]["profile"] == "quick"
    assert doc["run"]["trigger"] == os.environ.get("BENCHDASH_TRIGGER", "manual")
    assert doc["environment"]["compiler"] == "cpython" and doc["environment"]["cores"] >= 1
    assert [r["metrics"][0]["samples"] for r in doc["results"]] == [[1.0, 2.0]] * 3


def test_benchmarks_select_names_and_groups(demo: Path) -> None:
    code, out = finish(start(demo, "ok", "--benchmarks", "beta"))
    assert code == 0, out
    doc = json.loads((demo / "out" / "result.json").read_text())
    assert [r["benchmark"] for r in doc["results"]] == ["beta/1", "beta/2"]
    assert "##benchdash progress 2/2 done" in out


def test_unknown_benchmarks_are_named(demo: Path) -> None:
    code, out = finish(start(demo, "ok", "--benchmarks", "alpha,gamma,beta/3"))
    assert code == 1
    assert "unknown benchmarks: gamma, beta/3" in out and "known: alpha, beta/1, beta/2" in out
    assert not (demo / "out" / "result.json").exists()


def test_select() -> None:
    names = ["a", "b/1", "b/2", "bb"]
    assert driving.select(names, None) == names
    assert driving.select(names, " b , a ") == ["a", "b/1", "b/2"]
    assert driving.select(names, "b/2") == ["b/2"]
    with pytest.raises(SystemExit, match="unknown benchmarks: b/"):
        driving.select(names, "b/")


def test_build_failure_exits_3_with_the_build_log(demo: Path) -> None:
    code, out = finish(start(demo, "broken"))
    assert code == driving.BUILD_FAILED == 3
    assert "compiling demo" in out and "build failed (exit 1)" in out
    assert "##benchdash phase running" not in out


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("undeclared", "alpha/lines: metric not declared in runner.toml"),
        (
            "wrong-unit",
            "alpha/ops: ms/higher_is_better but runner.toml says ops/s/higher_is_better",
        ),
    ],
)
def test_finish_refuses_what_the_manifest_does_not_declare(
    demo: Path, mode: str, message: str
) -> None:
    code, out = finish(start(demo, mode))
    assert code == 1 and message in out
    assert not (demo / "out" / "result.json").exists()


def test_sigterm_stops_every_child_and_grandchild(demo: Path) -> None:
    proc = start(demo, "sigterm")
    pids = wait_for_pids(demo, 3, proc)  # server, its own child, the foreground tool
    proc.send_signal(signal.SIGTERM)  # the driver alone, not its group
    code, _ = finish(proc)
    assert code == 128 + signal.SIGTERM
    assert gone(pids) == []


def test_an_exception_stops_every_child(demo: Path) -> None:
    code, out = finish(start(demo, "exception"))
    assert code == 1 and "the driver broke while its children ran" in out
    pids = [int(p.name) for p in (demo / "out" / "pids").glob("*")]
    assert len(pids) == 3
    assert gone(pids) == []


def test_kill_9_of_the_driver_kills_its_children(demo: Path) -> None:
    proc = start(demo, "sigkill")
    pids = wait_for_pids(demo, 3, proc)
    children = [p for p in pids if int(_stat(p)[1]) == proc.pid]
    assert len(children) == 2  # the server and the foreground tool
    proc.kill()
    finish(proc)
    assert gone(children) == []  # Linux killed them (PR_SET_PDEATHSIG)
    # The server's own child is out of reach of a killed driver: the agent's kill of the
    # driver's process group, or its SIGTERM on the agent's death, covers it.
    orphans = [p for p in pids if p not in children]
    for pid in orphans:
        os.kill(pid, signal.SIGKILL)
    assert gone(orphans) == []
