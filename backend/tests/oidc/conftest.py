"""A local OpenID Connect provider per test, and the app configured to sign in with it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from benchdash.auth import usage
from benchdash.auth.models import User, UserSession
from benchdash.oidc import client as provider_client
from benchdash.oidc.models import UserIdentity
from benchdash.oidc.settings import get_oidc_settings
from tests.conftest import app_on
from tests.fixtures.oidc_issuer import Account, Issuer

ADMINS = "bench-admins"


@pytest.fixture
def issuer() -> Iterator[Issuer]:
    """The provider, approving `ann` (a member of the admin group) at once; stopped after."""
    provider = Issuer(account=Account(groups=[ADMINS, "staff"])).start()
    yield provider
    provider.stop()


@pytest.fixture
def oidc_env(issuer: Issuer, monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """The BENCHDASH_OIDC_* settings naming the local provider."""
    monkeypatch.setenv("BENCHDASH_OIDC_ISSUER", issuer.url)
    monkeypatch.setenv("BENCHDASH_OIDC_CLIENT_ID", issuer.client_id)
    monkeypatch.setenv("BENCHDASH_OIDC_CLIENT_SECRET", issuer.client_secret or "")
    monkeypatch.setenv("BENCHDASH_OIDC_ADMIN_GROUPS", f"{ADMINS}, other-admins")
    monkeypatch.setenv("BENCHDASH_OIDC_NAME", "Test IdP")
    get_oidc_settings.cache_clear()
    provider_client._client.cache_clear()
    yield monkeypatch
    get_oidc_settings.cache_clear()
    provider_client._client.cache_clear()


@pytest.fixture
def oidc_client(oidc_env: pytest.MonkeyPatch, connection: Connection) -> Iterator[TestClient]:
    """A client of the app configured with the provider (built after the settings are set)."""
    get_oidc_settings.cache_clear()
    with TestClient(app_on(connection)) as c:
        yield c
        usage.forget()


@dataclass
class Counts:
    users: int
    identities: int
    sessions: int


def counts(session: Session) -> Counts:
    """How many users, linked identities and sessions there are."""
    return Counts(
        users=session.scalar(select(func.count()).select_from(User)) or 0,
        identities=session.scalar(select(func.count()).select_from(UserIdentity)) or 0,
        sessions=session.scalar(select(func.count()).select_from(UserSession)) or 0,
    )


def to_provider(client: TestClient, next_path: str | None = None) -> httpx.Response:
    """Start the sign-in: the app's redirect, followed to the provider (real HTTP), whose
    answer is a redirect back to the callback."""
    params = {"next": next_path} if next_path is not None else {}
    r = client.get("/api/v1/auth/oidc/login", params=params, follow_redirects=False)
    assert r.status_code == 302, r.text
    at_provider = httpx.get(r.headers["location"], follow_redirects=False, timeout=10)
    assert at_provider.status_code == 302, at_provider.text
    return at_provider


def sign_in(client: TestClient) -> httpx.Response:
    """A whole sign-in through the provider; the callback's answer."""
    back = to_provider(client).headers["location"]
    return client.get(back, follow_redirects=False)
