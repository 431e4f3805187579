"""The embedded PostgreSQL (pgserver wheel) used when no DATABASE_URL is given."""

from __future__ import annotations

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
