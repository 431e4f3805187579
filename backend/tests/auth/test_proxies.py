"""The client address comes from X-Forwarded-For only when the peer is a trusted proxy."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from benchdash.auth import service as auth_service
from benchdash.config import Settings, get_settings
from tests.conftest import app_on

LOGIN = "/api/v1/auth/login"


@pytest.fixture
def trusting(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("BENCHDASH_TRUSTED_PROXIES", "10.0.0.0/8, 192.0.2.1")
    get_settings.cache_clear()
    yield
    monkeypatch.undo()
    get_settings.cache_clear()


def _addresses(session: Session) -> set[str]:
    rows = session.execute(text("SELECT key FROM login_throttle WHERE key LIKE 'addr:%'"))
    return {key.removeprefix("addr:") for (key,) in rows}


def _sign_in_from(connection: Connection, peer: str, forwarded: str) -> None:
    with TestClient(app_on(connection), client=(peer, 40000)) as c:
        r = c.post(
            LOGIN,
            json={"username": "nobody", "password": "wrong"},
            headers={"X-Forwarded-For": forwarded, "X-Forwarded-Proto": "https"},
        )
        assert r.status_code == 401, r.text


@pytest.mark.usefixtures("trusting")
def test_a_trusted_proxy_gives_the_client_address(connection: Connection, session: Session) -> None:
    _sign_in_from(connection, "10.1.2.3", "203.0.113.7")
    _sign_in_from(connection, "192.0.2.1", "198.51.100.9, 10.9.9.9")  # via two proxies
    assert _addresses(session) == {"203.0.113.7", "198.51.100.9"}


@pytest.mark.usefixtures("trusting")
def test_anyone_else_cannot_claim_an_address(connection: Connection, session: Session) -> None:
    _sign_in_from(connection, "198.51.100.1", "203.0.113.7")
    assert _addresses(session) == {"198.51.100.1"}


def test_no_proxy_is_trusted_by_default(connection: Connection, session: Session) -> None:
    assert Settings().trusted_proxies == ""
    _sign_in_from(connection, "127.0.0.1", "203.0.113.7")
    assert _addresses(session) == {"127.0.0.1"}


def test_a_bad_entry_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BENCHDASH_TRUSTED_PROXIES", "10.0.0.0/8,nginx")
    with pytest.raises(ValueError, match="'nginx' is no address or CIDR"):
        Settings()


@pytest.mark.usefixtures("trusting")
def test_https_via_a_trusted_proxy_gets_hsts_and_a_secure_cookie(
    connection: Connection, session: Session
) -> None:
    auth_service.ensure_user(session=session, username="ada", password="right-pass", is_admin=False)
    session.flush()
    for peer, proto, https in [
        ("10.1.2.3", "https", True),  # the proxy says the client came over HTTPS
        ("10.1.2.3", "http", False),
        ("198.51.100.1", "https", False),  # anyone else's word is not taken
    ]:
        with TestClient(app_on(connection), client=(peer, 40000)) as c:
            r = c.post(
                LOGIN,
                json={"username": "ada", "password": "right-pass"},
                headers={"X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": proto},
            )
            assert r.status_code == 200, r.text
            assert ("strict-transport-security" in r.headers) is https, (peer, proto)
            assert ("; secure" in r.headers["set-cookie"].lower()) is https, (peer, proto)
            assert ("strict-transport-security" in c.get("/healthz").headers) is False


def test_https_directly_gets_hsts_and_a_secure_cookie(connection: Connection) -> None:
    with TestClient(app_on(connection), base_url="https://testserver") as c:
        r = c.get("/api/v1/auth/me")
        assert r.headers["strict-transport-security"] == "max-age=31536000"
