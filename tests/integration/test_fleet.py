"""`make up` restarts a dead agent with backoff (issue 23, item 6): scripts/fleet.py with real
child processes, and with the real selftest agent killed by SIGKILL against the real API (that
agent logs in to the queue as the agents' database role and with its own system's token)."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.integration.agents import TERMINAL, get, post, wait_for
from tests.integration.conftest import BIN, ROOT, Api

sys.path.insert(0, str(ROOT / "scripts"))
import fleet


@contextmanager
def tended(agents: fleet.Fleet, every: float = 0.2) -> Iterator[fleet.Fleet]:
    """Start the fleet and tend it in the background as `make up` does; stop it all after."""
    done = threading.Event()

    def loop() -> None:
        while not done.wait(every):
            agents.tend()

    agents.start()
    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        yield agents
    finally:
        done.set()
        thread.join()
        agents.stop()


def _sleeper(tmp: Path, code: str = "import time; time.sleep(120)") -> fleet.Agent:
    return fleet.Agent("sleeper", [sys.executable, "-c", code], dict(os.environ), tmp / "a.log")


def test_an_agent_killed_with_sigkill_is_started_again_within_seconds(tmp_path: Path) -> None:
    said: list[str] = []
    with tended(fleet.Fleet([_sleeper(tmp_path)], say=said.append)) as agents:
        (agent,) = agents.agents
        assert agent.proc is not None
        first = agent.proc.pid
        t0 = time.monotonic()
        os.kill(first, signal.SIGKILL)
        wait_for(lambda: agent.proc is not None and agent.proc.pid != first, 5, "a new agent")
        took = time.monotonic() - t0
        assert agent.proc is not None and agent.proc.poll() is None
        new = agent.proc.pid
    print(f"restarted in {took:.2f} s: {said}")
    assert took < 3 and agent.restarts == 1
    assert said[0].startswith("agent sleeper: exited with signal SIGKILL")
    assert said[1] == f"agent sleeper: restarted (pid {new})"
    assert not Path(f"/proc/{new}").exists() or "zombie" in _state(new)  # stop() ended it


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return "zombie"


def test_a_crash_loop_backs_off_doubling_to_the_cap(tmp_path: Path) -> None:
    said: list[str] = []
    crashing = _sleeper(tmp_path, "raise SystemExit(3)")
    agents = fleet.Fleet([crashing], say=said.append, first_backoff_s=0.2, max_backoff_s=0.8)
    with tended(agents, every=0.05):
        wait_for(lambda: crashing.restarts >= 4, 15, "four restarts")
    waits = [line.split("restarting in ")[1] for line in said if "restarting in" in line]
    delays = [float(w.split(" s")[0]) for w in waits]
    print(said)
    assert all("exited with code 3" in line for line in said if "exited" in line)
    assert [round(d, 1) for d in delays[:5]] == [0.2, 0.4, 0.8, 0.8, 0.8][: len(delays[:5])]


def test_an_agent_that_had_been_running_is_restarted_at_the_first_backoff(tmp_path: Path) -> None:
    said: list[str] = []
    tired = _sleeper(tmp_path, "import time; time.sleep(0.5); raise SystemExit(1)")
    agents = fleet.Fleet([tired], say=said.append, first_backoff_s=0.2, stable_s=0.3)
    with tended(agents, every=0.05):
        wait_for(lambda: tired.restarts >= 3, 15, "three restarts")
    waits = [line.split("restarting in ")[1].split(" s")[0] for line in said if "in " in line]
    assert waits[:3] == ["0.2", "0.2", "0.2"], said


def test_the_real_agent_comes_back_after_kill_9_and_runs(api: Api, tmp_path: Path) -> None:
    token = api.cli(
        "token", "create", "--system", "selftest", "--scope", "agent", "--scope", "upload"
    )
    stack = {
        **os.environ,
        "DATABASE_URL": api.database_url,  # the stack's: the fleet keeps it from the agents
        "BENCHDASH_URL": api.url,
        "BENCHDASH_REPO": str(ROOT),
        "BENCHDASH_HOST_ID": "it-fleet",
        "BENCHDASH_SELFTEST_S": "0.3",
        "BENCHDASH_ADMIN_PASSWORD": "not-for-agents",
    }
    command = [str(BIN / "benchdash-runner"), "--system", "selftest", "--workdir", str(tmp_path)]
    agent_env = fleet.agent_env(stack, token, ["BENCHDASH_SELFTEST_S"])
    assert "DATABASE_URL" not in agent_env and "BENCHDASH_ADMIN_PASSWORD" not in agent_env
    agent = fleet.Agent("selftest", command, agent_env, tmp_path / "a.log")
    said: list[str] = []
    with tended(fleet.Fleet([agent], say=said.append)):
        wait_for(lambda: "for selftest on host" in _log(agent), 60, "the agent to register")
        assert agent.proc is not None
        first, t0 = agent.proc.pid, time.monotonic()
        os.kill(first, signal.SIGKILL)
        wait_for(lambda: agent.proc is not None and agent.proc.pid != first, 10, "a new agent")
        restarted = time.monotonic() - t0
        wait_for(lambda: _log(agent).count("for selftest on host") >= 2, 60, "it to register")
        time.sleep(1.0)  # its first heartbeat reaches the API
        run = post(api, "/api/v1/runs", {"system": "selftest", "ref": "HEAD", "profile": "quick"})
        assert run["warning"] is None, run["warning"]  # the API knows an agent is online
        final = wait_for(lambda: _ended(api, int(run["id"])), 120, "the new run to end")
    print(f"agent restarted {restarted:.2f} s after kill -9; run {run['id']}: {final['status']}")
    print(*said, sep="\n")
    assert restarted < 5 and agent.restarts == 1
    assert final["status"] == "completed" and final["agent"].endswith(f"/{agent.proc.pid}")


def _log(agent: fleet.Agent) -> str:
    return agent.log.read_text(errors="replace") if agent.log.exists() else ""


def _ended(api: Api, run_id: int) -> dict[str, object] | None:
    run: dict[str, object] = get(api, f"/api/v1/runs/{run_id}")
    return run if run["status"] in TERMINAL else None
