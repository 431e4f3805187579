"""Guessing at an account from one address never keeps its owner out from another; many
guesses at one account from anywhere warn the admins instead of locking it."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from benchdash.auth import service as auth_service
from benchdash.auth import throttle
from tests.conftest import app_on
from tests.fixtures.factories import auth, token

LOGIN = "/api/v1/auth/login"
WARNINGS = "/api/v1/auth/sign-in-warnings"


@pytest.fixture
def ada(session: Session) -> str:
    auth_service.ensure_user(session=session, username="ada", password="right-pass", is_admin=False)
    session.flush()
    return "ada"


def _from(connection: Connection, address: str) -> TestClient:
    return TestClient(app_on(connection), client=(address, 40000))


def _login(c: TestClient, password: str, user: str = "ada") -> int:
    return c.post(LOGIN, json={"username": user, "password": password}).status_code


def _touch(session: Session) -> None:
    session.execute(text("UPDATE login_throttle SET last_at = clock_timestamp()"))


def test_guesses_from_one_address_do_not_keep_the_owner_out(
    connection: Connection, session: Session, ada: str
) -> None:
    with _from(connection, "203.0.113.1") as attacker, _from(connection, "198.51.100.2") as owner:
        assert [_login(attacker, f"guess{i}") for i in range(5)] == [401] * 5
        _touch(session)
        assert _login(attacker, "guess5") == 429
        assert _login(attacker, "right-pass") == 429  # that address waits, even when right
        assert _login(owner, "right-pass") == 200  # at once, from an address that never failed
        assert _login(owner, "typo") == 401  # and a typo of the owner's is no 429 either
        _touch(session)
        assert _login(attacker, "guess6") == 429  # the owner's success freed nobody else


def test_the_account_ceiling_warns_the_admins_once_and_locks_nobody_out(
    connection: Connection, session: Session, ada: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(throttle, "CEILING", 3)
    addresses = ["203.0.113.1", "203.0.113.2", "203.0.113.3", "203.0.113.4"]
    for address in addresses:  # one guess from each: no address waits
        with _from(connection, address) as c:
            assert _login(c, "wrong") == 401
    rows = session.execute(
        text("SELECT actor, target, detail FROM audit_event WHERE action = :a"),
        {"a": "auth.sign_in_warning"},
    ).all()
    assert [(r.actor, r.target, r.detail["address"]) for r in rows] == [
        ("system", "user:ada", "203.0.113.3")
    ]
    with _from(connection, "198.51.100.2") as owner:
        assert _login(owner, "right-pass") == 200
        admin = auth(token(session, scope="admin"))
        r = owner.get(WARNINGS, headers=admin)
        assert r.status_code == 200, r.text
        [warning] = r.json()
        assert warning["username"] == "ada" and warning["attempts"] == 3
        assert warning["last_address"] == "203.0.113.3"
        assert owner.get(WARNINGS).status_code in (401, 403)  # signed in, but no admin
        assert owner.get(WARNINGS, headers=auth(token(session))).status_code == 403


def test_keys_pair_the_name_with_the_address() -> None:
    assert throttle.keys(" Ada ", "203.0.113.1") == {
        "user:ada": None,
        "pair:203.0.113.1|ada": throttle.FREE_PER_PAIR,
        "addr:203.0.113.1": throttle.FREE_PER_ADDRESS,
    }
