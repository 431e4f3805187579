"""Personal subscriptions: a signed-in user subscribes themselves (e-mail to their address) to a
system's events, and sees, tests and removes only their own; an admin sees and removes all; a
token cannot subscribe itself; bad input is a clear 4xx and changes nothing."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash.auth import service as auth_service
from benchdash.runs import lifecycle
from tests.fixtures.api import post
from tests.fixtures.factories import auth, document, metric, row_counts, token

SUBS = "/api/v1/notifications/subscriptions"
CSRF = {"x-benchdash-csrf": "1"}


def _user(client: TestClient, session: Session, name: str, admin: bool = False) -> TestClient:
    auth_service.ensure_user(session=session, username=name, password="s3cret-pass", is_admin=admin)
    session.flush()
    signed = TestClient(client.app)
    r = signed.post("/api/v1/auth/login", json={"username": name, "password": "s3cret-pass"})
    assert r.status_code == 200, r.text
    signed.headers.update(CSRF)
    return signed


def _mine(c: TestClient, address: str, **extra: object) -> dict[str, object]:
    r = c.post(f"{SUBS}/mine", json={"system": "uvhttp", "address": address, **extra})
    assert r.status_code == 201, r.text
    return dict(r.json())


def test_users_see_and_remove_only_their_own_and_admins_see_all(
    client: TestClient, session: Session
) -> None:
    post(client, auth(token(session, "uvhttp")), document(metric(value=100.0), at=0))
    ann, bob = _user(client, session, "ann"), _user(client, session, "bob")
    root = _user(client, session, "root", admin=True)
    team = root.post(
        SUBS,
        json={"system": "uvhttp", "name": "team", "channel": "email", "target": "t@x.test"},
    )
    assert team.status_code == 201 and team.json()["owner"] is None
    a = _mine(ann, "ann@x.test", events=["alert.opened", "alert.bisected"], branch="main")
    assert (a["channel"], a["target"], a["owner"], a["name"]) == (
        "email", "ann@x.test", "user:ann", "ann (e-mail)",
    )  # fmt: skip
    assert a["events"] == ["alert.opened", "alert.bisected"] and a["branch"] == "main"
    b = _mine(bob, "bob@x.test")
    assert b["events"] == [
        "alert.opened",
        "alert.updated",
        "alert.resolved",
        "alert.bisected",
        "alert.regraded",
        "run.failed",
    ]

    assert [s["id"] for s in ann.get(SUBS).json()] == [a["id"]]
    assert [s["id"] for s in bob.get(SUBS, params={"system": "uvhttp"}).json()] == [b["id"]]
    assert {s["id"] for s in root.get(SUBS).json()} >= {team.json()["id"], a["id"], b["id"]}
    # Another's: not readable, testable or removable; one's own: all three.
    for method, path in [
        ("GET", f"{SUBS}/{b['id']}/deliveries"),
        ("POST", f"{SUBS}/{b['id']}/test"),
        ("DELETE", f"{SUBS}/{b['id']}"),
        ("DELETE", f"{SUBS}/{team.json()['id']}"),
    ]:
        assert ann.request(method, path).status_code == 403, path
    assert ann.post(f"{SUBS}/{a['id']}/test").status_code == 202
    assert [d["event"] for d in ann.get(f"{SUBS}/{a['id']}/deliveries").json()] == ["test"]
    assert ann.delete(f"{SUBS}/{a['id']}").status_code == 204
    assert ann.get(SUBS).json() == []
    assert root.delete(f"{SUBS}/{b['id']}").status_code == 204  # an admin removes anyone's
    assert bob.get(SUBS).json() == []


def test_a_personal_subscription_hears_its_systems_events(
    client: TestClient, session: Session
) -> None:
    up = auth(token(session, "uvhttp"))
    post(client, up, document(metric(value=100.0), at=0))
    ann = _user(client, session, "ann")
    mine = _mine(ann, "ann@x.test", events=["run.failed"])
    session.execute(
        text(
            "INSERT INTO run (system_id, branch_id, trigger, status, accepted, created_at, "
            "started_at, heartbeat_at, ref) SELECT system_id, branch_id, 'manual', 'running', "
            "true, now(), now(), now() - interval '10 minutes', 'main' FROM run LIMIT 1"
        )
    )
    assert len(lifecycle.reap(session=session, timeout_s=60)) == 1
    (row,) = session.execute(text("SELECT subscription_id, event FROM notify_delivery")).all()
    assert tuple(row) == (mine["id"], "run.failed")


def test_bad_personal_subscriptions_are_refused_and_change_nothing(
    client: TestClient, session: Session
) -> None:
    post(client, auth(token(session, "uvhttp")), document(metric(value=100.0), at=0))
    ann = _user(client, session, "ann")
    trigger = auth(token(session, "uvhttp", scope="trigger"))
    before = (
        row_counts(session),
        session.execute(text("SELECT count(*) FROM notify_subscription")).scalar_one(),
    )
    for body, status in [
        ({"system": "uvhttp", "address": "not-an-address"}, 422),
        ({"system": "uvhttp", "address": "a@x.test", "events": ["test"]}, 422),
        ({"system": "uvhttp", "address": "a@x.test", "events": []}, 422),
        ({"system": "nope", "address": "a@x.test"}, 404),
    ]:
        r = ann.post(f"{SUBS}/mine", json=body)
        assert r.status_code == status, (body, r.text)
        assert r.headers["content-type"] == "application/problem+json"
    body = {"system": "uvhttp", "address": "a@x.test"}
    r = client.post(f"{SUBS}/mine", json=body, headers=trigger)
    assert r.status_code == 403 and "sign in" in r.json()["detail"]
    assert TestClient(client.app).post(f"{SUBS}/mine", json=body).status_code == 401
    after = (
        row_counts(session),
        session.execute(text("SELECT count(*) FROM notify_subscription")).scalar_one(),
    )
    assert after == before
