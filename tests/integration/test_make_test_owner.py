"""`make test` holds the embedded PostgreSQL by ownership (scripts/pgowner.py), not by whether a
`postmaster.pid` exists: after a `make up` killed by SIGTERM to its process group, or beside a
stale `postmaster.pid`, a `make test` that fails in a suite leaves no PostgreSQL and no process
running (issue 39). The real recipe runs, on a one-target suite that starts the server and
fails."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.integration.agents import wait_for
from tests.integration.conftest import ROOT, SERVER

PROBE = """
probe:
\t$(VENV)/bin/benchdash-server db-url >/dev/null
\t@if [ -n "$(STRAY)" ]; then setsid sleep 600 </dev/null >/dev/null 2>&1 & fi
\t@echo "the probe suite fails"; exit 1
"""


def _postmaster(pgdata: Path) -> int | None:
    try:
        pid = int((pgdata / "postmaster.pid").read_text().split()[0])
        argv0 = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0]
        return pid if argv0.endswith(b"postgres") else None
    except (OSError, ValueError, IndexError):
        return None


def _mentioning(text: str) -> list[str]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        if text in cmd or cwd.startswith(text):
            found.append(f"{pid}: {cmd}")
    return found


def _make_test(env: dict[str, str], tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real `make test` recipe, its suites one probe that starts the server and fails
    (and with STRAY=1 leaves a process behind, re-parented to init)."""
    probe = tmp / "probe.mk"
    probe.write_text(PROBE)
    make = ["make", "--no-print-directory", "-f", "Makefile", "-f", str(probe)]
    return subprocess.run(
        [*make, "test", "TEST_SUITES=probe", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _killed_make_up(env: dict[str, str]) -> None:
    """What a `make up` leaves when its process group is killed before it cleans up: a running
    server, marked as held by a process that is gone."""
    hold = "import os, time, pgowner; pgowner.hold(os.getpid(), 'make up'); print('held'); "
    hold += "time.sleep(600)"
    up = subprocess.Popen(
        [sys.executable, "-c", hold],
        cwd=ROOT / "scripts",
        env={**env, "PYTHONPATH": str(ROOT / "scripts")},
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert up.stdout is not None and up.stdout.readline().strip() == "held"
    os.killpg(up.pid, signal.SIGTERM)
    up.wait(timeout=20)


def _stale_pid_file(env: dict[str, str], data: Path) -> None:
    """A server started and stopped, then a `postmaster.pid` left naming a pid that is gone."""
    subprocess.run([SERVER, "db-url"], env=env, check=True, capture_output=True)
    lines = (data / "pg" / "postmaster.pid").read_text().splitlines()
    subprocess.run([SERVER, "db-stop"], env=env, check=True, capture_output=True)
    gone = subprocess.Popen(["true"])
    gone.wait()
    (data / "pg" / "postmaster.pid").write_text("\n".join([str(gone.pid), *lines[1:]]) + "\n")


@pytest.mark.parametrize("before", ["killed make up", "stale postmaster.pid"])
def test_make_test_stops_the_server_it_holds_even_when_a_suite_fails(
    tmp_path: Path, before: str
) -> None:
    data = tmp_path / "data"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "MAKEFLAGS")}
    env["BENCHDASH_DATA_DIR"] = str(data)
    if before == "killed make up":
        _killed_make_up(env)
        assert _postmaster(data / "pg") is not None  # the orphan runs on
    else:
        _stale_pid_file(env, data)
    try:
        stray = before == "killed make up"  # and a suite leaves a process behind
        made = _make_test(env, tmp_path, *(["STRAY=1"] if stray else []))
        said = made.stdout + made.stderr
        assert made.returncode != 0 and "the probe suite fails" in said, said
        assert "pgowner: PostgreSQL stopped" in said, said
        if stray:
            assert re.search(r"check-survivors: still running: \d+ sleep 600", said), said
            assert "1 process(es) outlived make test (stopped now)" in said, said
        else:
            assert "check-survivors: no process of this run is left" in said, said
        assert _postmaster(data / "pg") is None, said
        assert not (data / "pg.owner").exists()
        wait_for(lambda: _mentioning(str(data)) == [], 10, "every process of the run to end")
        assert not [p for p in _mentioning("sleep 600") if "setsid" not in p]
    finally:
        if _postmaster(data / "pg") is not None:
            subprocess.run([SERVER, "db-stop"], env=env, check=False, capture_output=True)
            time.sleep(0.1)


def test_a_server_held_by_a_live_make_up_is_left_running(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "MAKEFLAGS")}
    env["BENCHDASH_DATA_DIR"] = str(data)
    hold = "import os, sys, pgowner; pgowner.hold(os.getpid(), 'make up'); print('held')"
    hold += "; sys.stdout.flush(); sys.stdin.read()"
    up = subprocess.Popen(
        [sys.executable, "-c", hold],
        env={**env, "PYTHONPATH": str(ROOT / "scripts")},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert up.stdout is not None and up.stdout.readline().strip() == "held"
        made = _make_test(env, tmp_path)
        said = made.stdout + made.stderr
        assert made.returncode != 0 and "is held by make up" in said, said
        assert _postmaster(data / "pg") is not None, said  # make up's server runs on
    finally:
        up.communicate("", timeout=20)
        subprocess.run([SERVER, "db-stop"], env=env, check=False, capture_output=True)
