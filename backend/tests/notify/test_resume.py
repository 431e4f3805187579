"""Resuming a paused subscription through the API: its owner or an admin of its system may,
anyone else may not; a bad id is a 404 or 422 that says so, one that is not paused a 409; a
refusal changes nothing (no row, no audit event)."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash.db import utcnow
from benchdash.notify.models import Subscription
from tests.fixtures.api import post
from tests.fixtures.factories import auth, document, metric, row_counts, token
from tests.notify.test_mine import CSRF, SUBS, _mine, _user

REASON = "paused after 5 failed deliveries; last: HTTP 410 from hooks.example.com"


def _pause(session: Session, sub_id: int) -> None:
    sub = session.get_one(Subscription, sub_id)
    sub.paused_at, sub.paused_reason, sub.consecutive_failures = utcnow(), REASON, 5
    session.flush()


def _audits(session: Session) -> int:
    q = "SELECT count(*) FROM audit_event WHERE action = 'notify.resume'"
    return int(session.execute(text(q)).scalar_one())


def test_the_owner_resumes_a_paused_subscription_and_it_is_audited(
    client: TestClient, session: Session
) -> None:
    post(client, auth(token(session, "uvhttp")), document(metric(value=100.0), at=0))
    ann = _user(client, session, "ann")
    mine = _mine(ann, "ann@x.test")
    _pause(session, int(str(mine["id"])))
    (listed,) = ann.get(SUBS).json()
    assert listed["paused_reason"] == REASON and listed["consecutive_failures"] == 5
    r = ann.post(f"{SUBS}/{mine['id']}/resume")
    assert r.status_code == 200, r.text
    assert (r.json()["paused_at"], r.json()["paused_reason"]) == (None, None)
    assert r.json()["consecutive_failures"] == 0
    q = "SELECT actor, detail FROM audit_event WHERE action = 'notify.resume' AND target = :t"
    (row,) = session.execute(text(q), {"t": f"uvhttp:{mine['id']}"}).all()
    assert tuple(row) == ("user:ann", {"was": REASON})


def test_bad_resumes_are_refused_with_a_reason_and_change_nothing(
    client: TestClient, session: Session
) -> None:
    post(client, auth(token(session, "uvhttp")), document(metric(value=100.0), at=0))
    ann, bob = _user(client, session, "ann"), _user(client, session, "bob")
    a, b = _mine(ann, "ann@x.test"), _mine(bob, "bob@x.test")
    _pause(session, int(str(b["id"])))
    before = (row_counts(session), _audits(session))
    for path, status, words in [
        (f"{SUBS}/2147483000/resume", 404, "no subscription 2147483000"),
        (f"{SUBS}/0/resume", 422, "greater than or equal to 1"),
        (f"{SUBS}/abc/resume", 422, "valid integer"),
        (f"{SUBS}/{a['id']}/resume", 409, "is not paused: nothing to resume"),
        (f"{SUBS}/{b['id']}/resume", 403, ""),  # another user's
    ]:
        r = ann.post(path)
        assert r.status_code == status, (path, r.text)
        assert r.headers["content-type"] == "application/problem+json"
        assert words in r.text, r.text
    anonymous = TestClient(client.app, headers=CSRF)
    assert anonymous.post(f"{SUBS}/{b['id']}/resume").status_code == 401
    assert (row_counts(session), _audits(session)) == before
    assert session.get_one(Subscription, int(str(b["id"]))).paused_reason == REASON
