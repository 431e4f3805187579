"""Stopping the embedded PostgreSQL: a real server goes down, a stale pid file is not a server."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from benchdash.kit.embedded import _postmaster_alive, process_alive, stop_server


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_stale_pid_file_is_not_a_running_server(tmp_path: Path) -> None:
    pgdata = tmp_path / "pg"
    pgdata.mkdir()
    (pgdata / "postmaster.pid").write_text(f"{_dead_pid()}\n{pgdata}\n")
    assert not _postmaster_alive(pgdata)
    assert stop_server(tmp_path) is False


def test_garbage_pid_file_is_not_a_running_server(tmp_path: Path) -> None:
    pgdata = tmp_path / "pg"
    pgdata.mkdir()
    (pgdata / "postmaster.pid").write_text("not a pid\n")
    assert stop_server(tmp_path) is False


def test_real_server_is_stopped(tmp_path: Path) -> None:
    server = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from pathlib import Path; "
            "from benchdash.kit.embedded import ensure_server; "
            "print(ensure_server(Path(sys.argv[1])))",
            str(tmp_path),
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert server.stdout.startswith("postgresql+psycopg://")
    pgdata = (tmp_path / "pg").resolve()
    pid = int((pgdata / "postmaster.pid").read_text().split("\n", 1)[0])
    assert _postmaster_alive(pgdata)
    assert stop_server(tmp_path) is True
    assert not (pgdata / "postmaster.pid").exists()
    assert not process_alive(pid), f"postmaster {pid} still running after stop_server"
    assert stop_server(tmp_path) is False
