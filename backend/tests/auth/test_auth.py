"""Tokens are shown once and stored hashed; users sign in with an HttpOnly SameSite cookie."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select, text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from benchdash.auth import service as auth_service
from benchdash.auth.models import ApiToken
from benchdash.kit.errors import InvalidInput


def test_token_is_stored_hashed(session: Session) -> None:
    token, plain = auth_service.create_token(
        session=session, name="t", scopes=["upload"], systems=["x"]
    )
    stored = session.scalar(select(ApiToken).where(ApiToken.id == token.id))
    assert stored is not None and plain not in stored.token_hash and len(stored.token_hash) == 64
    assert auth_service.verify_token(session=session, plain=plain).may("upload", "x")


def test_login_sets_a_strict_httponly_cookie(client: TestClient, session: Session) -> None:
    auth_service.ensure_user(session=session, username="ada", password="s3cret-pass", is_admin=True)
    session.flush()
    assert client.get("/api/v1/auth/me").json() is None
    assert (
        client.post("/api/v1/auth/login", json={"username": "ada", "password": "nope"}).status_code
        == 401
    )
    r = client.post("/api/v1/auth/login", json={"username": "ada", "password": "s3cret-pass"})
    assert r.status_code == 200
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie
    assert client.get("/api/v1/auth/me").json() == {"username": "ada", "is_admin": True}
    # A cookie alone cannot mutate: the CSRF header is required.
    r = client.put("/api/v1/systems/x/metrics/y", json={"warn_threshold": 1, "fail_threshold": 2})
    assert r.status_code == 403 and "x-benchdash-csrf" in r.json()["detail"]


def test_cli_prints_a_token_once(engine: Engine) -> None:
    env = {**os.environ, "DATABASE_URL": engine.url.render_as_string(hide_password=False)}
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchdash.cli",
            "token",
            "create",
            "--system",
            "uvhttp",
            "--scope",
            "upload",
            "--name",
            "cli-test",
        ],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    # The CLI committed it outside the test's transaction: take it away, for the other tests.
    with engine.begin() as conn:
        gone = conn.execute(text("DELETE FROM api_token WHERE name = 'cli-test'")).rowcount
    assert out.stdout.startswith("bd_") and "shown once" in out.stderr and gone == 1
    bad = subprocess.run(
        [sys.executable, "-m", "benchdash.cli", "token", "create", "--scope", "root"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and "invalid choice" in bad.stderr


def test_cli_says_to_migrate_an_empty_database(engine: Engine) -> None:
    name = f"{engine.url.database}_empty"
    admin = create_engine(engine.url, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        c.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        empty = engine.url.set(database=name).render_as_string(hide_password=False)
        out = subprocess.run(
            [sys.executable, "-m", "benchdash.cli", "token", "create", "--scope", "upload"],
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, "DATABASE_URL": empty},
        )
        assert out.returncode == 1 and "benchdash-server migrate" in out.stderr
    finally:
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def test_agent_token_from_the_environment_is_made_valid(session: Session) -> None:
    plain = auth_service.generate_plain()
    first = auth_service.ensure_token(
        session=session, plain=plain, name="agents", scopes=["upload", "trigger"]
    )
    again = auth_service.ensure_token(
        session=session, plain=plain, name="agents", scopes=["upload", "trigger"]
    )
    assert first.id == again.id
    who = auth_service.verify_token(session=session, plain=plain)
    assert who.may("trigger", "cachex") and who.may("upload", "relay") and not who.may("admin")
    with pytest.raises(InvalidInput, match="BENCHDASH_AGENT_TOKEN"):
        auth_service.ensure_token(session=session, plain="secret", name="x", scopes=["upload"])


def test_secrets_may_contain_underscores(session: Session) -> None:
    plain = "bd_0123456789ab_" + "x_y-" * 10  # token_urlsafe draws '_' too
    auth_service.ensure_token(session=session, plain=plain, name="u", scopes=["upload"])
    assert auth_service.verify_token(session=session, plain=plain).may("upload", "any")
