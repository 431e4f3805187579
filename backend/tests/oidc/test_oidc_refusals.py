"""A sign-in that fails (a state not ours, a code injected without its PKCE verifier, a nonce,
key, audience or expiry that does not hold, the provider's own refusal) creates nothing and
says why; with password sign-in switched off, a password is refused in words."""

from __future__ import annotations

from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from benchdash.auth import service as auth_service
from benchdash.oidc.settings import get_oidc_settings
from tests.conftest import app_on
from tests.fixtures.oidc_issuer import Issuer
from tests.oidc.conftest import counts, sign_in, to_provider

CALLBACK = "/api/v1/auth/oidc/callback"


def _query(url: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}


def test_a_state_that_is_not_ours_is_refused(oidc_client: TestClient, session: Session) -> None:
    before = counts(session)
    back = _query(to_provider(oidc_client).headers["location"])
    r = oidc_client.get(f"{CALLBACK}?{urlencode({**back, 'state': 'forged-state'})}")
    assert r.status_code == 400 and "state" in r.json()["detail"].lower()
    assert counts(session) == before
    # and a callback without a login started in this browser at all
    fresh = TestClient(oidc_client.app)
    r = fresh.get(f"{CALLBACK}?{urlencode(back)}")
    assert r.status_code == 400 and "state" in r.json()["detail"].lower()
    assert counts(session) == before


def test_a_code_injected_from_another_login_fails_pkce(
    oidc_client: TestClient, issuer: Issuer, session: Session
) -> None:
    """The victim's browser started a login (its state, its verifier); an attacker's code
    (from the attacker's own login, another challenge) pasted in with the victim's state."""
    before = counts(session)
    victim = _query(to_provider(oidc_client).headers["location"])
    attacker = TestClient(oidc_client.app)
    stolen = _query(to_provider(attacker).headers["location"])
    r = oidc_client.get(
        f"{CALLBACK}?{urlencode({'code': stolen['code'], 'state': victim['state']})}"
    )
    assert r.status_code == 400
    assert "PKCE verification failed" in r.json()["detail"]
    assert issuer.refusals == ["PKCE verification failed"]
    assert issuer.token_requests[-1]["code_verifier"]  # the client did send its verifier
    assert counts(session) == before


def test_the_provider_refusing_is_shown_in_words(
    oidc_client: TestClient, issuer: Issuer, session: Session
) -> None:
    before = counts(session)
    issuer.misbehave = "deny"
    back = to_provider(oidc_client).headers["location"]
    r = oidc_client.get(back, headers={"accept": "text/html"})
    assert r.status_code == 400 and r.headers["content-type"].startswith("text/html")
    assert "access_denied" in r.text and "the user said no" in r.text
    assert counts(session) == before


@pytest.mark.parametrize(
    ("misbehave", "words"),
    [
        ("wrong-nonce", "nonce"),
        ("wrong-key", "signature"),
        ("wrong-audience", "aud"),
        ("expired", "exp"),
    ],
)
def test_an_id_token_that_does_not_hold_is_refused(
    oidc_client: TestClient, issuer: Issuer, session: Session, misbehave: str, words: str
) -> None:
    before = counts(session)
    issuer.misbehave = misbehave
    r = sign_in(oidc_client)
    assert r.status_code == 400, r.text
    detail = r.json()["detail"]
    assert "ID token is not valid" in detail and words in detail.lower(), detail
    assert counts(session) == before
    assert oidc_client.get("/api/v1/auth/me").json() is None


def test_password_sign_in_switched_off_is_refused_in_words(
    oidc_env: pytest.MonkeyPatch, connection: Connection, session: Session
) -> None:
    oidc_env.setenv("BENCHDASH_LOCAL_SIGN_IN", "false")
    get_oidc_settings.cache_clear()
    auth_service.ensure_user(session=session, username="ada", password="s3cret-pass", is_admin=True)
    session.flush()
    with TestClient(app_on(connection)) as client:
        config = client.get("/api/v1/auth/config").json()
        assert config == {
            "local": False,
            "oidc": {"name": "Test IdP", "login_url": "/api/v1/auth/oidc/login"},
        }
        r = client.post("/api/v1/auth/login", json={"username": "ada", "password": "s3cret-pass"})
        assert r.status_code == 403
        assert "password is switched off" in r.json()["detail"]
        assert "Sign in with Test IdP" in r.json()["detail"]
        assert client.get("/api/v1/auth/me").json() is None
        assert sign_in(client).status_code == 303  # the provider still signs people in
        assert client.get("/api/v1/auth/me").json()["username"] == "ann"


def test_without_a_provider_only_passwords_are_offered(client: TestClient) -> None:
    get_oidc_settings.cache_clear()
    assert client.get("/api/v1/auth/config").json() == {"local": True, "oidc": None}
    r = client.get("/api/v1/auth/oidc/login", follow_redirects=False)
    assert r.status_code == 404 and "BENCHDASH_OIDC_ISSUER" in r.json()["detail"]


def test_local_sign_in_off_without_a_provider_does_not_start(
    monkeypatch: pytest.MonkeyPatch, connection: Connection
) -> None:
    monkeypatch.setenv("BENCHDASH_LOCAL_SIGN_IN", "false")
    get_oidc_settings.cache_clear()
    try:
        with pytest.raises(ValueError, match="nobody could sign in"):
            app_on(connection)
    finally:
        get_oidc_settings.cache_clear()
