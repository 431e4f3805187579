"""`benchdash-server migrate --wait`: a database that is not up yet is waited for, one that
never answers is named in a clear error."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine


def _migrate(url: str, wait: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "benchdash.cli", "migrate", "--wait", str(wait)],
        env={**os.environ, "DATABASE_URL": url},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_database_that_never_answers_is_named(tmp_path: Path) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    done = _migrate(f"postgresql+psycopg://u:p@127.0.0.1:{port}/nowhere", wait=1)
    assert done.returncode == 1
    assert "waiting for the database" in done.stdout
    assert "did not answer within 1 s" in done.stderr
    assert f'"127.0.0.1", port {port} failed' in done.stderr


def test_a_database_that_comes_up_during_the_wait_is_migrated(
    engine: Engine, tmp_path: Path
) -> None:
    socket_dir = engine.url.query.get("host")
    if not isinstance(socket_dir, str) or not Path(socket_dir).is_dir():
        pytest.skip("needs PostgreSQL on a Unix socket (the embedded server)")
    name = f"{engine.url.database}_wait"
    admin = create_engine(engine.url, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        c.execute(text(f'CREATE DATABASE "{name}"'))
    # The server "starts" 2 s in: its socket appears in the folder the URL names.
    later = tmp_path / "sock"
    later.mkdir()
    real = next(Path(socket_dir).glob(".s.PGSQL.*"))
    timer = threading.Timer(2.0, lambda: (later / real.name).symlink_to(real))
    timer.start()
    try:
        url = engine.url.set(database=name, query={"host": str(later)})
        done = _migrate(url.render_as_string(hide_password=False), wait=30)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "waiting for the database" in done.stdout
        assert "schema at head" in done.stdout
        with create_engine(url).connect() as c:
            assert c.execute(text("SELECT version_num FROM alembic_version")).scalar()
    finally:
        timer.cancel()
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
