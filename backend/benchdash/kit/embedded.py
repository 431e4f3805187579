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


def stop_server(data_dir: Path) -> bool:
    """Stop the embedded server under `data_dir/pg` if it runs; True when it was stopped."""
    pgdata = (data_dir / "pg").resolve()
    if not (pgdata / "postmaster.pid").exists():
        return False
    import pwd

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pgserver._commands import pg_ctl  # type: ignore[attr-defined]  # made at import

        owner = pwd.getpwuid(pgdata.stat().st_uid).pw_name
        extra = {"user": owner} if os.geteuid() == 0 and owner != "root" else {}
        pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, timeout=60, **extra)
    return True
