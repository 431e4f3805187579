"""A subscription that keeps failing is paused with its reason in words, through the real job
queue to a local receiver: N failed deliveries in a row pause it (a delivery's retries count
once, a permanent 4xx counts once), a success resets the count, a paused subscription gets
nothing queued (and a delivery still waiting is not sent), "send a test" still sends, and
resuming it through the API delivers again, audited."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from benchdash import deps
from benchdash.app import create_app
from benchdash.audit.models import AuditEvent
from benchdash.auth import service as auth_service
from benchdash.auth import usage
from benchdash.auth.models import ApiToken
from benchdash.config import Settings
from benchdash.db import session_maker
from benchdash.notify.models import Subscription
from benchdash.systems.models import System
from tests.fixtures.receiver import Receiver, serve
from tests.notify.live import Live, delivering, live
from tests.notify.test_delivery import until

SECRET = "whsec_test-secret-for-the-pause"
SUBS = "/api/v1/notifications/subscriptions"


@pytest.fixture
def world(engine: Engine) -> Iterator[Live]:
    with live(engine) as w:
        yield w


def _settings(**extra: Any) -> Settings:
    return Settings(notify_backoff_s=0.2, notify_stalled_s=2.0, **extra)


@contextmanager
def _admin_api(world: Live) -> Iterator[TestClient]:
    """The real app on the committed database, with an admin token of the test's system."""

    def request_session() -> Iterator[Session]:
        with world.sessions() as s:
            yield s

    with world.sessions() as s:
        slug = s.scalar(select(System.slug).where(System.id == world.system_id))
        token, plain = auth_service.create_token(
            session=s, name="pause test", scopes=["admin"], systems=[str(slug)]
        )
        s.flush()
        token_id = token.id
    app = create_app()
    app.dependency_overrides[deps.request_session] = request_session
    app.dependency_overrides[session_maker] = lambda: contextmanager(request_session)
    try:
        with TestClient(app, headers={"Authorization": f"Bearer {plain}"}) as c:
            yield c
            usage.forget()  # its last use lives in the test database, not the app's own
    finally:
        with world.sessions() as s:
            s.execute(delete(ApiToken).where(ApiToken.id == token_id))


def _sub(world: Live, sub_id: int) -> Subscription:
    with world.sessions() as s:
        return s.get_one(Subscription, sub_id)


def _audit(world: Live, sub_id: int) -> list[tuple[str, str]]:
    with world.sessions() as s:
        rows = s.execute(
            select(AuditEvent.action, AuditEvent.actor)
            .where(AuditEvent.target.endswith(f":{sub_id}"), AuditEvent.action.like("notify.%"))
            .order_by(AuditEvent.id)
        ).all()
    return [(a, b) for a, b in rows]


def test_a_receiver_answering_500_pauses_it_nothing_is_queued_and_resume_delivers(
    world: Live,
) -> None:
    # Two tries per delivery, paused after three failed deliveries: six 500s, then 200s.
    down = Receiver(secret=SECRET, fail_first=6)
    server = serve(down)
    sub_id = world.subscribe("webhook", down.url, SECRET)
    settings = _settings(notify_max_attempts=2, notify_pause_after=3)
    with _admin_api(world) as api, delivering(world, settings):
        for run in (1, 2, 3):
            assert world.fail_run(run) == 1
        until(lambda: [d.status for d in world.deliveries()] == ["failed"] * 3)
        until(lambda: _sub(world, sub_id).paused_at is not None)
        assert len(down.requests) == 6 and down.handled == {}  # every retry was a 500
        (listed,) = [s for s in api.get(SUBS).json() if s["id"] == sub_id]
        assert listed["paused_reason"] == (
            "paused after 3 failed deliveries; last: HTTP 500 from 127.0.0.1"
        )
        assert listed["consecutive_failures"] == 3 and listed["paused_at"] is not None

        assert world.fail_run(4) == 0  # paused: nothing queued
        assert len(world.deliveries()) == 3

        r = api.post(f"{SUBS}/{sub_id}/resume")
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["paused_reason"] is None and body["paused_at"] is None
        assert body["consecutive_failures"] == 0
        assert world.fail_run(5) == 1
        down.wait_for(1)
        until(lambda: world.deliveries()[-1].status == "delivered")
    ((_, event),) = [(k, v) for k, v in down.handled.items()]
    assert event["run"]["id"] == 5
    assert _audit(world, sub_id) == [
        ("notify.pause", "benchdash"),
        ("notify.resume", "token:pause test"),
    ]
    server.shutdown()


def test_permanent_refusals_count_once_each_and_a_waiting_delivery_is_not_sent(
    world: Live,
) -> None:
    gone = Receiver(fail_first=1000, fail_status=410)
    server = serve(gone)
    sub_id = world.subscribe("webhook", gone.url, SECRET)
    for run in (1, 2, 3):  # queued before the worker starts: the third waits behind the pause
        world.fail_run(run)
    with _admin_api(world) as api, delivering(world, _settings(notify_pause_after=2)):
        until(lambda: [d.status for d in world.deliveries()] == ["failed"] * 3)
        assert len(gone.requests) == 2  # one try each; the third never went out
        third = world.deliveries()[2]
        sub = _sub(world, sub_id)
        reason = "paused after 2 failed deliveries; last: HTTP 410 from 127.0.0.1"
        assert sub.paused_reason == reason and sub.consecutive_failures == 2
        assert third.attempts == 0
        assert third.last_error == f"not sent: the subscription is paused ({reason})"

        r = api.post(f"{SUBS}/{sub_id}/test")  # a test still goes out, to see if it is fixed
        assert r.status_code == 202, r.text
        until(lambda: len(gone.requests) == 3)
        until(lambda: _sub(world, sub_id).consecutive_failures == 3)
    assert _sub(world, sub_id).paused_reason == reason  # still paused, for the first reason
    server.shutdown()


def test_a_success_resets_the_count(world: Live) -> None:
    flaky = Receiver(secret=SECRET, fail_first=2, fail_status=404)
    server = serve(flaky)
    sub_id = world.subscribe("webhook", flaky.url, SECRET)
    with delivering(world, _settings(notify_pause_after=3)):
        for run in (1, 2):
            world.fail_run(run)
        until(lambda: _sub(world, sub_id).consecutive_failures == 2)
        world.fail_run(3)
        flaky.wait_for(1)
        until(lambda: world.deliveries()[-1].status == "delivered")
    sub = _sub(world, sub_id)
    assert sub.consecutive_failures == 0 and sub.paused_at is None
    server.shutdown()
