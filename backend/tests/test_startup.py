"""`benchdash-server migrate --wait`: a database that is not up yet is waited for, one that
never answers is named in a clear error."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
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
    # The server "starts" once the command says it is waiting: its socket appears in the
    # folder the URL names (a fixed delay raced the command's own start on a loaded machine).
    later = tmp_path / "sock"
    later.mkdir()
    real = next(Path(socket_dir).glob(".s.PGSQL.*"))
    url = engine.url.set(database=name, query={"host": str(later)})
    cmd = [sys.executable, "-m", "benchdash.cli", "migrate", "--wait", "60"]
    env = {**os.environ, "DATABASE_URL": url.render_as_string(hide_password=False)}
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert "waiting for the database" in first, first
        (later / real.name).symlink_to(real)
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, first + out + err
        assert "schema at head" in out
        with create_engine(url).connect() as c:
            assert c.execute(text("SELECT version_num FROM alembic_version")).scalar()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
