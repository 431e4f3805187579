"""Least privilege for tokens, sessions that end on the server, an audit trail for thresholds."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from benchdash.audit.models import AuditEvent
from benchdash.auth import service as auth_service
from benchdash.auth import usage
from benchdash.auth.models import ApiToken, User
from tests.fixtures.factories import auth, token
from tests.fixtures.manifests import MANIFEST

CSRF = {"x-benchdash-csrf": "1"}


def _sign_in(client: TestClient, session: Session, username: str = "ada") -> None:
    auth_service.ensure_user(
        session=session, username=username, password="s3cret-pass", is_admin=True
    )
    session.flush()
    r = client.post("/api/v1/auth/login", json={"username": username, "password": "s3cret-pass"})
    assert r.status_code == 200, r.text


def test_an_upload_token_cannot_register_a_manifest(client: TestClient, session: Session) -> None:
    upload = auth(token(session, "cachex", scope="upload"))
    bad = {**MANIFEST, "metrics": [{**MANIFEST["metrics"][0], "warn": 999, "fail": 1000}]}
    r = client.put("/api/v1/systems/cachex/manifest", json=bad, headers=upload)
    assert r.status_code == 403 and "'agent' scope" in r.json()["detail"]
    assert r.headers["content-type"] == "application/problem+json"
    agent = auth(token(session, "cachex", scope="agent"))
    assert client.put("/api/v1/systems/cachex/manifest", json=MANIFEST, headers=agent).is_success


def test_an_upload_token_cannot_report_on_a_run(client: TestClient, session: Session) -> None:
    agent = auth(token(session, "cachex", scope="agent+trigger"))
    assert client.put("/api/v1/systems/cachex/manifest", json=MANIFEST, headers=agent).is_success
    run = client.post("/api/v1/runs", json={"system": "cachex"}, headers=agent).json()
    upload = auth(token(session, "cachex", scope="upload"))
    r = client.post(f"/api/v1/runs/{run['id']}/report", json={"lines": ["x"]}, headers=upload)
    assert r.status_code == 403
    r = client.post(f"/api/v1/runs/{run['id']}/report", json={"lines": ["x"]}, headers=agent)
    assert r.status_code == 200


def test_logout_ends_the_session_on_the_server(client: TestClient, session: Session) -> None:
    _sign_in(client, session)
    old_cookie = dict(client.cookies)
    assert client.post("/api/v1/auth/logout").status_code == 403  # CSRF header required
    assert client.get("/api/v1/auth/me").json() is not None
    assert client.post("/api/v1/auth/logout", headers=CSRF).status_code == 204
    client.cookies.clear()
    client.cookies.update(old_cookie)  # an attacker replays the old cookie
    assert client.get("/api/v1/auth/me").json() is None
    r = client.put("/api/v1/systems/x/branches/main/baseline", json={"run_id": None}, headers=CSRF)
    assert r.status_code == 401


def test_a_password_change_ends_every_session(client: TestClient, session: Session) -> None:
    _sign_in(client, session, "bob")
    user = session.scalar(select(User).where(User.username == "bob"))
    assert user is not None
    auth_service.set_password(session=session, user=user, password="an0ther-pass")
    session.flush()
    assert client.get("/api/v1/auth/me").json() is None


def test_threshold_changes_are_audited(client: TestClient, session: Session) -> None:
    agent = auth(token(session, "cachex", scope="agent"))
    assert client.put("/api/v1/systems/cachex/manifest", json=MANIFEST, headers=agent).is_success
    admin = auth(token(session, scope="admin"))
    name = MANIFEST["metrics"][0]["name"]
    r = client.put(
        f"/api/v1/systems/cachex/metrics/{name}",
        json={"warn_threshold": 7, "fail_threshold": 14},
        headers=admin,
    )
    assert r.status_code == 200
    events = session.scalars(
        select(AuditEvent).where(AuditEvent.target == f"cachex/{name}").order_by(AuditEvent.id)
    ).all()
    assert events[-1].action == "thresholds.set"
    assert events[-1].actor == "token:test"
    assert events[-1].detail["to"] == {"warn": 7.0, "fail": 14.0}


def test_token_use_is_recorded_outside_the_request(client: TestClient, session: Session) -> None:
    plain = token(session, scope="upload")
    stored = session.scalar(select(ApiToken).where(ApiToken.prefix == plain.split("_")[1]))
    assert stored is not None and stored.last_used_at is None
    assert client.get("/api/v1/runs", headers=auth(plain)).status_code == 200
    session.refresh(stored)
    assert stored.last_used_at is None  # the request itself never wrote the token row
    assert usage.flush(session) >= 1
    session.refresh(stored)
    assert stored.last_used_at is not None
