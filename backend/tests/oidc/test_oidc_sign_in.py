"""Sign-in with OpenID Connect against a local provider: users made at the first sign-in and
found again by (issuer, subject), the admin role mapped from the groups at every sign-in."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from benchdash.audit.models import AuditEvent
from benchdash.auth import service as auth_service
from benchdash.auth.models import User
from benchdash.oidc.models import UserIdentity
from tests.fixtures.oidc_issuer import Issuer
from tests.oidc.conftest import counts, sign_in, to_provider


def test_the_first_sign_in_creates_the_user_with_the_mapped_role(
    oidc_client: TestClient, issuer: Issuer, session: Session
) -> None:
    before = counts(session)
    r = sign_in(oidc_client)
    assert r.status_code == 303 and r.headers["location"] == "/"
    cookie = r.headers["set-cookie"].lower()
    assert "benchdash_session=" in cookie and "httponly" in cookie and "samesite=strict" in cookie
    assert oidc_client.get("/api/v1/auth/me").json() == {"username": "ann", "is_admin": True}

    identity = session.scalar(select(UserIdentity).where(UserIdentity.subject == "sub-ann-0001"))
    assert identity is not None and identity.issuer == issuer.url
    user = session.get(User, identity.user_id)
    assert user is not None and user.username == "ann" and user.is_admin
    for password in ("!oidc", user.password_hash):  # no password signs this user in
        login = {"username": "ann", "password": password}
        assert oidc_client.post("/api/v1/auth/login", json=login).status_code == 401
    after = counts(session)
    assert (after.users, after.identities, after.sessions) == (
        before.users + 1, before.identities + 1, before.sessions + 1,
    )  # fmt: skip
    event = session.scalar(select(AuditEvent).where(AuditEvent.action == "auth.oidc_sign_in"))
    assert event is not None and event.target == "user:ann"
    assert event.detail["created"] is True and event.detail["is_admin"] is True
    assert event.detail["groups"] == ["bench-admins", "staff"]


def test_the_flow_uses_pkce_s256_state_and_nonce(oidc_client: TestClient, issuer: Issuer) -> None:
    r = oidc_client.get("/api/v1/auth/oidc/login", follow_redirects=False)
    query = parse_qs(urlsplit(r.headers["location"]).query)
    assert query["code_challenge_method"] == ["S256"] and len(query["code_challenge"][0]) == 43
    assert query["state"][0] and query["nonce"][0] and query["response_type"] == ["code"]
    assert query["redirect_uri"] == ["http://testserver/api/v1/auth/oidc/callback"]
    flow_cookie = r.headers["set-cookie"].lower()
    assert "path=/api/v1/auth/oidc" in flow_cookie and "samesite=lax" in flow_cookie


def test_a_second_sign_in_reuses_the_user(oidc_client: TestClient, session: Session) -> None:
    assert sign_in(oidc_client).status_code == 303
    first = counts(session)
    oidc_client.cookies.clear()
    assert sign_in(oidc_client).status_code == 303
    second = counts(session)
    assert (second.users, second.identities) == (first.users, first.identities)
    assert second.sessions == first.sessions + 1
    assert len(session.scalars(select(User).where(User.username.like("ann%"))).all()) == 1


def test_leaving_the_admin_group_drops_admin_at_the_next_sign_in(
    oidc_client: TestClient, issuer: Issuer, session: Session
) -> None:
    sign_in(oidc_client)
    assert oidc_client.get("/api/v1/auth/me").json()["is_admin"] is True
    issuer.account.groups = ["staff"]
    oidc_client.cookies.clear()
    assert sign_in(oidc_client).status_code == 303
    assert oidc_client.get("/api/v1/auth/me").json() == {"username": "ann", "is_admin": False}
    r = oidc_client.get("/api/v1/auth/users", headers={"x-benchdash-csrf": "1"})
    assert r.status_code == 403  # no longer an admin, at once
    events = session.scalars(
        select(AuditEvent).where(AuditEvent.action == "auth.oidc_sign_in").order_by(AuditEvent.id)
    ).all()
    assert [(e.detail["was_admin"], e.detail["is_admin"]) for e in events] == [
        (False, True), (True, False),
    ]  # fmt: skip
    issuer.account.groups = ["other-admins"]  # any of the admin groups
    oidc_client.cookies.clear()
    sign_in(oidc_client)
    assert oidc_client.get("/api/v1/auth/me").json()["is_admin"] is True


def test_a_local_user_of_the_same_name_is_not_taken_over(
    oidc_client: TestClient, session: Session
) -> None:
    local = auth_service.ensure_user(
        session=session, username="ann", password="local-password-1", is_admin=False
    )
    session.flush()
    assert sign_in(oidc_client).status_code == 303
    assert oidc_client.get("/api/v1/auth/me").json() == {"username": "ann-2", "is_admin": True}
    session.refresh(local)
    assert not local.is_admin


def test_a_disabled_user_is_refused_and_gets_no_session(
    oidc_client: TestClient, session: Session
) -> None:
    sign_in(oidc_client)
    user = session.scalar(select(User).where(User.username == "ann"))
    assert user is not None
    oidc_client.post("/api/v1/auth/logout", headers={"x-benchdash-csrf": "1"})
    auth_service.end_all_sessions(session=session, user=user)
    user.disabled_at = user.created_at
    session.flush()
    before = counts(session)
    r = sign_in(oidc_client)
    assert r.status_code == 401 and "disabled" in r.json()["detail"]
    assert counts(session) == before


def test_the_sign_in_returns_to_a_path_of_this_site_only(oidc_client: TestClient) -> None:
    back = to_provider(oidc_client, next_path="/runs?branch=main").headers["location"]
    assert oidc_client.get(back, follow_redirects=False).headers["location"] == "/runs?branch=main"
    for elsewhere in ("//evil.example/", "/\\evil.example", "/\t/evil.example", "https://x.y/"):
        oidc_client.cookies.clear()
        back = to_provider(oidc_client, next_path=elsewhere).headers["location"]
        assert oidc_client.get(back, follow_redirects=False).headers["location"] == "/"
