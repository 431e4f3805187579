"""Admin over the API: tokens (created once shown, listed without secrets, revoked), users
(created, disabled, enabled), thresholds with who and when, the manifest and a repository URL.
Admins only; bad input answers 4xx with nothing changed."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from benchdash.audit.models import AuditEvent
from benchdash.auth import service as auth_service
from tests.fixtures.factories import auth, token
from tests.fixtures.manifests import MANIFEST

CSRF = {"x-benchdash-csrf": "1"}


def _admin(client: TestClient, session: Session, name: str = "root") -> None:
    auth_service.ensure_user(session=session, username=name, password="s3cret-pass", is_admin=True)
    session.flush()
    r = client.post("/api/v1/auth/login", json={"username": name, "password": "s3cret-pass"})
    assert r.status_code == 200, r.text


def test_a_token_is_shown_once_listed_without_secret_and_revoked(
    client: TestClient, session: Session
) -> None:
    _admin(client, session)
    body = {"name": "ci uploads", "scopes": ["upload"], "systems": ["cachex"]}
    r = client.post("/api/v1/auth/tokens", json=body, headers=CSRF)
    assert r.status_code == 201, r.text
    plain = r.json()["token"]
    assert plain.startswith("bd_") and r.json()["systems"] == ["cachex"]
    listed = [t for t in client.get("/api/v1/auth/tokens").json() if t["name"] == "ci uploads"]
    assert len(listed) == 1
    assert "token" not in listed[0] and plain not in str(listed)
    # the token works until revoked
    assert client.get("/api/v1/runs", headers=auth(plain)).status_code == 200
    r = client.post(f"/api/v1/auth/tokens/{listed[0]['id']}/revoke", headers=CSRF)
    assert r.status_code == 200 and r.json()["revoked_at"] is not None
    auth_service._verified.clear()  # the few-second cache of verified tokens
    r = client.post("/api/v1/results", json={}, headers=auth(plain))
    assert r.status_code == 401 and "revoked" in r.json()["detail"]
    actions = session.scalars(select(AuditEvent.action).order_by(AuditEvent.id)).all()
    assert actions[-2:] == ["token.create", "token.revoke"]  # a CLI test may have left others


def test_token_input_is_validated(client: TestClient, session: Session) -> None:
    _admin(client, session)
    before = client.get("/api/v1/auth/tokens").json()
    for body in (
        {"name": "x", "scopes": []},
        {"name": "x", "scopes": ["root"]},
        {"name": "", "scopes": ["upload"]},
        {"name": "x", "scopes": ["upload"], "systems": ["Not A Slug"]},
    ):
        r = client.post("/api/v1/auth/tokens", json=body, headers=CSRF)
        assert r.status_code == 422, body
    assert client.get("/api/v1/auth/tokens").json() == before  # nothing was made
    assert client.post("/api/v1/auth/tokens/999999/revoke", headers=CSRF).status_code == 404


def test_only_admins_over_every_system_manage_credentials(
    client: TestClient, session: Session
) -> None:
    assert client.get("/api/v1/auth/tokens").status_code == 401
    trigger = auth(token(session, scope="trigger"))
    assert client.get("/api/v1/auth/users", headers=trigger).status_code == 403
    scoped_admin = auth(token(session, "cachex", scope="admin"))
    r = client.get("/api/v1/auth/tokens", headers=scoped_admin)
    assert r.status_code == 403 and "every system" in r.json()["detail"]
    assert client.get("/api/v1/auth/users", headers=auth(token(session, scope="admin"))).is_success


def test_users_are_created_disabled_and_enabled(client: TestClient, session: Session) -> None:
    _admin(client, session)
    body = {"username": "bea", "password": "long-enough-pw", "is_admin": False}
    r = client.post("/api/v1/auth/users", json=body, headers=CSRF)
    assert r.status_code == 201, r.text
    uid = r.json()["id"]
    assert client.post("/api/v1/auth/users", json=body, headers=CSRF).status_code == 409
    short = {"username": "cy", "password": "short"}
    assert client.post("/api/v1/auth/users", json=short, headers=CSRF).status_code == 422
    assert [u["username"] for u in client.get("/api/v1/auth/users").json()] == ["bea", "root"]
    r = client.put(f"/api/v1/auth/users/{uid}/disabled", json={"disabled": True}, headers=CSRF)
    assert r.status_code == 200 and r.json()["disabled_at"] is not None
    me = next(u for u in client.get("/api/v1/auth/users").json() if u["username"] == "root")
    r = client.put(f"/api/v1/auth/users/{me['id']}/disabled", json={"disabled": True}, headers=CSRF)
    assert r.status_code == 403  # not yourself
    other = TestClient(client.app)
    r = other.post("/api/v1/auth/login", json={"username": "bea", "password": "long-enough-pw"})
    assert r.status_code == 401 and "disabled" in r.json()["detail"]
    client.put(f"/api/v1/auth/users/{uid}/disabled", json={"disabled": False}, headers=CSRF)
    r = other.post("/api/v1/auth/login", json={"username": "bea", "password": "long-enough-pw"})
    assert r.status_code == 200


def test_thresholds_show_who_and_when_and_the_manifest_reads_back(
    client: TestClient, session: Session
) -> None:
    agent = auth(token(session, "cachex", scope="agent"))
    manifest = {**MANIFEST, "repository": "https://github.com/acme/cachex"}
    assert client.put("/api/v1/systems/cachex/manifest", json=manifest, headers=agent).is_success
    _admin(client, session)
    r = client.put(
        "/api/v1/systems/cachex/metrics/qps",
        json={"warn_threshold": 3, "fail_threshold": 6},
        headers=CSRF,
    )
    assert r.status_code == 200, r.text
    metrics = {m["name"]: m for m in client.get("/api/v1/systems/cachex/metrics").json()}
    assert metrics["qps"]["last_change"]["by"] == "user:root"
    assert metrics["qps"]["last_change"]["detail"]["to"] == {"warn": 3.0, "fail": 6.0}
    assert metrics["latency_p99_us"]["last_change"]["by"].startswith("token:")
    view = client.get("/api/v1/systems/cachex/manifest").json()
    assert view["manifest"]["profiles"]["quick"]["repetitions"] == 3
    assert view["repository"] == "https://github.com/acme/cachex"
    bad = client.put(
        "/api/v1/systems/cachex/settings", json={"repository": "ftp://x"}, headers=CSRF
    )
    assert bad.status_code == 422
    before = session.scalar(select(func.count()).select_from(AuditEvent))
    r = client.put(
        "/api/v1/systems/cachex/settings",
        json={"repository": "https://gitlab.com/acme/cachex"},
        headers=CSRF,
    )
    assert r.json() == {"repository": "https://gitlab.com/acme/cachex"}
    assert session.scalar(select(func.count()).select_from(AuditEvent)) == before + 1
    assert client.get("/api/v1/systems/cachex/manifest", headers={}).is_success
    anon = TestClient(client.app)
    assert anon.get("/api/v1/systems/cachex/manifest").status_code == 401
