"""Start a throwaway API on a scratch database for the benchmarks (stdlib + the venv's CLI)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

BIN = Path(sys.executable).parent
CLI = str(BIN / "benchdash-server")


def free_port() -> int:
    """An unused loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def scratch_database(name: str) -> str:
    """Create an empty, migrated database; return its URL."""
    url = subprocess.run([CLI, "scratch-db", name], capture_output=True, text=True, check=True)
    db = url.stdout.strip()
    subprocess.run(
        [CLI, "migrate"], env={**os.environ, "DATABASE_URL": db}, check=True, capture_output=True
    )
    return db


def cli(db: str, *args: str) -> str:
    """Run a CLI command against `db` and return its stdout."""
    out = subprocess.run(
        [CLI, *args],
        env={**os.environ, "DATABASE_URL": db},
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout.strip()


@contextmanager
def embedded_stopped_after() -> Iterator[None]:
    """Stop the embedded PostgreSQL on exit if the benchmark started it (none was running and
    no DATABASE_URL is set); its data stays on disk for the next run."""
    from benchdash.config import get_settings

    settings = get_settings()
    ours = not settings.database_url and not (settings.data_dir / "pg/postmaster.pid").exists()
    try:
        yield
    finally:
        if ours:
            subprocess.run([CLI, "db-stop"], check=False, capture_output=True)


@contextmanager
def api(db: str, workers: int = 1, log: Path | None = None) -> Iterator[str]:
    """Serve the API on a free port against `db`; yield its base URL. Its output (access log,
    errors) goes to `log`, or nowhere."""
    port = free_port()
    command = [CLI, "serve", "--no-migrate", "--host", "127.0.0.1", "--port", str(port)]
    env = {"DATABASE_URL": db}
    with served([*command, "--workers", str(workers)], env, port, log=log) as base:
        yield base


@contextmanager
def served(
    command: list[str], env: dict[str, str], port: int, log: Path | None = None
) -> Iterator[str]:
    """Run `command` (an API listening on 127.0.0.1:`port`) until /readyz answers; yield its
    base URL; terminate it (and wait for it) on exit. Its output goes to `log` if given."""
    out = log.open("ab") if log else subprocess.DEVNULL
    proc = subprocess.Popen(
        command,
        env={**os.environ, **env},
        stdout=out,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # a group of its own: stopped with its workers
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            if proc.poll() is not None:
                raise SystemExit(f"the API exited with code {proc.returncode}: {command}")
            try:
                with urllib.request.urlopen(base + "/readyz", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.1)
        else:
            raise SystemExit("the API did not start")
        yield base
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)  # a worker its supervisor left behind
        if log:
            out.close()  # type: ignore[union-attr]
