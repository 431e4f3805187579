"""Agents that survive (issue 10): a PostgreSQL restart behind the API they ask for work, one
benchmark per host across systems (the API's host lock), and benchmarks that die with their agent.

This module runs its own PostgreSQL (pgserver's binaries, in a temporary folder) so that it can
restart it without disturbing the other tests, its own API on it, and agents working a small
git repository holding this tree's `selftest` runner and a `survivor` runner whose driver (on
`benchdash_runner.driving`) holds a server with a child of its own and a foreground tool.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.agents import TERMINAL, get, post, wait_for
from tests.integration.conftest import BIN, ROOT, Api
from tests.integration.pg import Postgres

HOST = "it-survive"
SURVIVOR_DRIVER = """\
#!/usr/bin/env python3
import os, sys
from pathlib import Path
from benchdash_runner import driving

drv, _ = driving.start(Path(__file__).with_name("runner.toml"))
pids = Path(os.environ["SURVIVOR_PIDS"])
(pids / str(os.getpid())).touch()
sleeper = [sys.executable, str(Path(__file__).with_name("sleeper.py")), str(pids)]
drv.phase("running")
drv.progress("hold")
with drv.background([*sleeper, "fork"]):
    drv.run(sleeper)
"""
SLEEPER = """\
import os, subprocess, sys, time
if len(sys.argv) > 2:
    subprocess.Popen([sys.executable, __file__, sys.argv[1]])
open(os.path.join(sys.argv[1], str(os.getpid())), "w").close()
time.sleep(600)
"""


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A git repository with this tree's selftest runner and the survivor runner."""
    root = tmp_path_factory.mktemp("repo")
    selftest = ROOT / "runners" / "selftest"
    shutil.copytree(selftest, root / "runners" / "selftest", ignore=shutil.ignore_patterns("__*"))
    survivor = root / "runners" / "survivor"
    survivor.mkdir()
    manifest = (selftest / "runner.toml").read_text().replace("selftest", "survivor")
    # its driver reads SURVIVOR_PIDS: named in the manifest, or the agent does not pass it on
    manifest = manifest.replace("pass_env = [", 'pass_env = ["SURVIVOR_PIDS", ', 1)
    (survivor / "runner.toml").write_text(manifest)
    (survivor / "driver.py").write_text(SURVIVOR_DRIVER)
    (survivor / "driver.py").chmod(0o755)
    (survivor / "sleeper.py").write_text(SLEEPER)
    git = ["git", "-C", str(root), "-c", "user.name=it", "-c", "user.email=it@localhost"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "agents that survive"]):
        subprocess.run([*git, *args], check=True)
    return root


@contextlib.contextmanager
def agent(
    api: Api, repo: Path, tmp: Path, system: str, env: dict[str, str] | None = None
) -> Iterator[tuple[subprocess.Popen[bytes], Path]]:
    """One agent of `system` on host HOST; yields the process and its log file."""
    log = tmp / f"agent-{system}.log"
    cmd = [str(BIN / "benchdash-runner"), "--system", system, "--repo", str(repo)]
    cmd += ["--api", api.url, "--token", api.token]
    cmd += ["--workdir", str(tmp / f"work-{system}"), "--host-id", HOST]
    with log.open("wb") as out:
        proc = subprocess.Popen(
            cmd,
            env={**os.environ, "BENCHDASH_SELFTEST_S": "0.2", **(env or {})},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_for(lambda: f"for {system} on host" in _text(log), 60, f"the {system} agent")
        yield proc, log
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _text(log: Path) -> str:
    return log.read_text(errors="replace")


def trigger(api: Api, system: str) -> int:
    """Queue a quick run of HEAD."""
    return int(
        post(api, "/api/v1/runs", {"system": system, "ref": "HEAD", "profile": "quick"})["id"]
    )


def finished(api: Api, run_id: int, timeout: float = 180) -> dict[str, object]:
    """The run once it reached a final state."""
    wait_for(lambda: get(api, f"/api/v1/runs/{run_id}")["status"] in TERMINAL, timeout, "the run")
    run: dict[str, object] = get(api, f"/api/v1/runs/{run_id}")
    return run


def test_idle_agent_survives_a_long_outage_and_runs_the_next_run(
    private_stack: tuple[Api, Postgres], repo: Path, tmp_path: Path
) -> None:
    api, pg = private_stack
    with agent(api, repo, tmp_path, "selftest") as (proc, log):
        # The API answers 503 while its database is away: the agent backs off and asks again.
        pg.restart(down_s=40)
        assert "cannot ask for work" in _text(log)
        assert proc.poll() is None, _text(log)
        run = finished(api, trigger(api, "selftest"))
        assert proc.poll() is None
    assert run["status"] == "completed", run
    assert len(run["measurements"]) == 3  # type: ignore[arg-type]


def test_one_benchmark_per_host_across_systems_and_a_restart(
    private_stack: tuple[Api, Postgres], repo: Path, tmp_path: Path
) -> None:
    api, pg = private_stack
    pids = tmp_path / "pids"
    pids.mkdir()
    with (
        agent(api, repo, tmp_path, "survivor", env={"SURVIVOR_PIDS": str(pids)}),
        agent(api, repo, tmp_path, "selftest") as (proc, log),
    ):
        busy = trigger(api, "survivor")  # holds the host until it is cancelled
        wait_for(lambda: get(api, f"/api/v1/runs/{busy}")["status"] == "running", 90, "busy")
        run_id = trigger(api, "selftest")
        wait_for(lambda: f"host {HOST} is busy with run {busy}" in _text(log), 30, "the wait")
        assert get(api, f"/api/v1/runs/{run_id}")["status"] == "queued"
        assert get(api, f"/api/v1/runs/{run_id}").get("agent") is None  # not handed out
        pg.restart()  # the queued run and the busy one outlive the database's restart
        post(api, f"/api/v1/runs/{busy}/cancel", {})
        run = finished(api, run_id)
        assert proc.poll() is None, _text(log)
    assert finished(api, busy)["status"] == "cancelled"
    assert run["status"] == "completed", run
    assert len(run["measurements"]) == 3  # type: ignore[arg-type]


def test_kill_9_of_the_agent_kills_the_driver_and_its_children(
    private_stack: tuple[Api, Postgres], repo: Path, tmp_path: Path
) -> None:
    api, _ = private_stack
    pids = tmp_path / "pids"
    pids.mkdir()
    with agent(api, repo, tmp_path, "survivor", env={"SURVIVOR_PIDS": str(pids)}) as (proc, _):
        trigger(api, "survivor")
        # The driver, the server it holds, the server's own child and the foreground tool.
        wait_for(lambda: len(list(pids.iterdir())) >= 4, 90, "the benchmark's processes")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    procs = [int(p.name) for p in pids.iterdir()]
    left = _alive_after(procs, 15.0)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == [], "processes outlived their agent"


def _alive_after(pids: list[int], seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while True:
        alive = [p for p in pids if _running(p)]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.1)


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
