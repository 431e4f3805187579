"""Sign-ins are throttled per (user name, address) and per address; their hashing is bounded."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from argon2 import extract_parameters
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash.auth import passwords, throttle
from benchdash.auth import service as auth_service
from benchdash.kit.errors import Busy

LOGIN = "/api/v1/auth/login"


def _login(client: TestClient, user: str, password: str) -> int:
    return client.post(LOGIN, json={"username": user, "password": password}).status_code


def _age(session: Session, seconds: float) -> None:
    """Pretend every counted attempt happened `seconds` earlier."""
    session.execute(
        text("UPDATE login_throttle SET last_at = last_at - :d"), {"d": timedelta(seconds=seconds)}
    )


def _touch(session: Session) -> None:
    """Pretend the counted attempts happened just now: on a loaded machine a sign-in (its
    hashing) can outlast the 1 s wait itself, and the next would be admitted early."""
    session.execute(text("UPDATE login_throttle SET last_at = clock_timestamp()"))


@pytest.mark.parametrize("user", ["ada", "nobody-of-that-name"])
def test_wrong_passwords_back_off_alike_for_real_and_unknown_users(
    client: TestClient, session: Session, user: str
) -> None:
    auth_service.ensure_user(session=session, username="ada", password="right-pass", is_admin=False)
    assert [_login(client, user, f"guess{i}") for i in range(5)] == [401] * 5
    _touch(session)
    r = client.post(LOGIN, json={"username": user, "password": "guess5"})
    assert r.status_code == 429 and r.headers["content-type"] == "application/problem+json"
    assert r.headers["retry-after"] == "1" and "try again in 1 s" in r.json()["detail"]
    _age(session, 1.5)
    assert _login(client, user, "guess6") == 401  # admitted after its wait, then counted
    _touch(session)
    r = client.post(LOGIN, json={"username": user, "password": "guess7"})
    assert r.status_code == 429 and r.headers["retry-after"] == "2"  # the wait doubles


def test_the_right_password_waits_too_then_clears_the_count(
    client: TestClient, session: Session
) -> None:
    auth_service.ensure_user(session=session, username="ada", password="right-pass", is_admin=False)
    for i in range(5):
        _login(client, "ada", f"guess{i}")
    _touch(session)
    assert _login(client, "ada", "right-pass") == 429
    _age(session, 2)
    assert _login(client, "ada", "right-pass") == 200
    left = session.execute(text("SELECT key FROM login_throttle")).scalars().all()
    assert left == ["user:ada"]  # the pair and the address start over; the account's watch stays


def test_one_address_guessing_many_names_is_throttled(client: TestClient, session: Session) -> None:
    codes = [_login(client, f"user{i}", "x") for i in range(throttle.FREE_PER_ADDRESS)]
    _touch(session)
    codes.append(_login(client, "one-more", "x"))
    assert codes == [401] * throttle.FREE_PER_ADDRESS + [429]


def test_a_key_quiet_for_the_window_starts_over(client: TestClient, session: Session) -> None:
    for i in range(6):
        _login(client, "ada", f"guess{i}")
    _age(session, throttle.WINDOW_S + 1)
    assert [_login(client, "ada", f"again{i}") for i in range(5)] == [401] * 5


def test_the_backoff_grows_to_its_cap() -> None:
    waits = [throttle.wait_s(n, 5) for n in (0, 4, 5, 6, 9, 40)]
    assert waits == [0, 0, 1, 2, 16, throttle.MAX_WAIT_S]


def test_unknown_users_are_checked_against_a_hash_of_the_same_cost() -> None:
    real = passwords.hash_password("some password")
    assert extract_parameters(passwords._unknown_user_hash()) == extract_parameters(real)
    assert passwords.verify(None, "anything") is False
    assert passwords.verify(real, "some password") is True
    assert passwords.verify(real, "other") is False


def test_password_checks_beyond_the_bound_are_refused_with_503(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    slots = threading.BoundedSemaphore(1)
    monkeypatch.setattr(passwords, "_slots", lambda: slots)
    monkeypatch.setattr(passwords, "QUEUE_WAIT_S", 0.05)
    with slots, pytest.raises(Busy) as busy:  # another check holds the only slot
        passwords.verify(None, "x")
    assert busy.value.headers["Retry-After"] == "1"
    assert passwords.verify(None, "x") is False  # the slot is free again
