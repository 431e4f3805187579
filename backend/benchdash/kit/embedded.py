"""The embedded PostgreSQL (pgserver wheel) used when no DATABASE_URL is given."""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import Any

_servers: dict[Path, Any] = {}


def ensure_server(data_dir: Path) -> str:
    """Start (or reuse) the embedded server under `data_dir/pg`; return a SQLAlchemy URL."""
    pgdata = (data_dir / "pg").resolve()
    if pgdata not in _servers:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import pgserver

            pgdata.parent.mkdir(parents=True, exist_ok=True)
            # cleanup_mode=None: the server outlives this process so that `make up`,
            # the CLI and the agents all share it.
            _servers[pgdata] = pgserver.get_server(  # type: ignore[attr-defined]
                pgdata, cleanup_mode=None
            )
    uri: str = _servers[pgdata].get_uri()
    return uri.replace("postgresql://", "postgresql+psycopg://", 1)


def normalize_url(url: str) -> str:
    """Make any postgres URL use the psycopg 3 driver."""
    for prefix in ("postgresql+psycopg2://", "postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


# A loaded machine can take longer than pg_ctl's wait to finish a fast shutdown (a checkpoint
# behind other work): wait longer, then stop at once rather than leave the server running.
_STOP_ATTEMPTS = (("fast", 60), ("fast", 180), ("immediate", 60))


def _postmaster_alive(pgdata: Path) -> bool:
    """Whether postmaster.pid names a live process (a stale file after a crash does not)."""
    try:
        pid = int((pgdata / "postmaster.pid").read_text().split("\n", 1)[0])
    except (OSError, ValueError):
        return False
    return process_alive(pid)


def process_alive(pid: int) -> bool:
    """A process that exists and is not a zombie waiting for a parent to reap it."""
    try:
        os.kill(pid, 0)
    except (OSError, OverflowError):
        return False
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True  # no procfs: trust the signal
    return stat.rsplit(")", 1)[-1].split()[0] != "Z"


def stop_server(data_dir: Path) -> bool:
    """Stop the embedded server under `data_dir/pg` if it runs; True when it was stopped."""
    pgdata = (data_dir / "pg").resolve()
    if not _postmaster_alive(pgdata):
        return False
    import pwd
    import subprocess

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pgserver._commands import pg_ctl  # type: ignore[attr-defined]  # made at import

        owner = pwd.getpwuid(pgdata.stat().st_uid).pw_name
        extra = {"user": owner} if os.geteuid() == 0 and owner != "root" else {}
        for attempt, (mode, wait_s) in enumerate(_STOP_ATTEMPTS, start=1):
            args = ["-w", "-t", str(wait_s), "-m", mode, "stop"]
            try:
                pg_ctl(args, pgdata=pgdata, timeout=wait_s + 30, **extra)
                return True
            except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
                if not _postmaster_alive(pgdata):
                    return True  # it went down while pg_ctl gave up waiting, or was not running
                if attempt == len(_STOP_ATTEMPTS):
                    raise
    return True
