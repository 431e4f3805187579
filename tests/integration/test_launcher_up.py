"""The real native `make up` (scripts/up.py): agents with their own tokens and no API secret,
`kill -9` of an agent answered by a restart within seconds, and on SIGTERM everything it started
stops, the embedded PostgreSQL included (issue 23, items 1, 6 and 7)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.integration.agents import wait_for
from tests.integration.conftest import ROOT
from tests.integration.pg import free_port


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _environ(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes()  # root here: the agent is not dumpable
    pairs = (item.decode().partition("=") for item in raw.split(b"\0") if item)
    return {k: v for k, _, v in pairs}


def test_make_up_supervises_its_agents_and_stops_all(tmp_path: Path) -> None:
    data, dist = tmp_path / "data", tmp_path / "dist"
    dist.mkdir()
    (dist / "index.html").write_text("<!doctype html><title>built elsewhere</title>")
    env = {
        **{k: v for k, v in os.environ.items() if k != "DATABASE_URL"},
        "BENCHDASH_NATIVE": "1",
        "BENCHDASH_PORT": str(free_port()),
        "BENCHDASH_DATA_DIR": str(data),
        "BENCHDASH_ADMIN_PASSWORD": "given-password",
        "BENCHDASH_FRONTEND_DIST": str(dist),
        "BENCHDASH_WORKERS": "1",
    }
    out = (tmp_path / "up.log").open("w")
    up = subprocess.Popen(
        [sys.executable, str(ROOT / "scripts" / "up.py")], env=env, stdout=out, stderr=out
    )
    log = tmp_path / "up.log"
    started: list[int] = []
    try:
        wait_for(lambda: "benchdash is up" in log.read_text(), 180, "make up to be up")
        text = log.read_text()
        assert f"embedded PostgreSQL in {data / 'pg'}" in text
        assert "password in BENCHDASH_ADMIN_PASSWORD (as you set it)" in text
        assert not (data / "admin-password").exists()
        started = [int(p) for p in (data / "up.pids").read_text().split()]
        agents = {p: re.sub(r".*--system (\S+).*", r"\1", _cmdline(p)) for p in started[2:]}
        assert agents, text
        tokens = set()
        for pid, system in agents.items():
            seen = _environ(pid)
            assert seen["BENCHDASH_TOKEN"] == (data / f"agent-token-{system}").read_text().strip()
            tokens.add(seen["BENCHDASH_TOKEN"])
            assert "DATABASE_URL" not in seen, system  # agents ask the API for work
            assert not {"BENCHDASH_ADMIN_PASSWORD", "BENCHDASH_SECRET_KEY"} & set(seen)
            assert not [k for k in seen if k.startswith("BENCHDASH_AGENT_")], system
        assert len(tokens) == len(agents)
        victim, system = next(iter(agents.items()))
        t0 = time.monotonic()
        os.kill(victim, signal.SIGKILL)
        line = wait_for(
            lambda: re.search(rf"agent {system}: restarted \(pid (\d+)\)", log.read_text()),
            10,
            "the agent to be restarted",
        )
        took, new = time.monotonic() - t0, int(line[1])
        print(f"{system} agent restarted {took:.2f} s after kill -9 (pid {victim} -> {new})")
        assert took < 5 and _alive(new) and new in map(int, (data / "up.pids").read_text().split())
        started.append(new)
        beats = f'"POST /api/v1/systems/{system}/agents/heartbeat HTTP/1.1" 200'
        restart = log.read_text().index(line[0])  # the new agent says it is online at start
        wait_for(lambda: beats in log.read_text()[restart:], 30, "the new agent's heartbeat")
    finally:
        up.send_signal(signal.SIGTERM)
        try:
            up.wait(timeout=60)
        finally:
            if up.poll() is None:
                up.kill()
            for pid in started:
                if _alive(pid):
                    os.kill(pid, signal.SIGKILL)
            out.close()
    assert up.returncode == 0, log.read_text()[-2000:]
    assert "pgowner: PostgreSQL stopped" in log.read_text()
    left = [p for p in started if _alive(p)]
    servers = [
        p for p in map(int, filter(str.isdigit, os.listdir("/proc"))) if str(data) in _cmdline(p)
    ]
    assert left == [] and servers == [], (left, [_cmdline(p) for p in servers])
