"""The outbox is written in the transaction that opens or resolves an alert or fails a run:
one delivery per matching subscription, each with its job on the `notify` queue; the
subscription endpoints validate and authorise; a webhook's secret is shown once."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash.db import utcnow
from benchdash.notify import channels
from benchdash.runs import lifecycle
from tests.fixtures.api import post
from tests.fixtures.factories import auth, document, metric, row_counts, token

JITTER = (1.0, 1.002, 0.998, 1.001, 0.999)
SUBS = "/api/v1/notifications/subscriptions"


def _run(
    client: TestClient, up: dict[str, str], value: float, at: int, branch: str = "main"
) -> None:
    doc = document(metric(value=value * JITTER[at % 5]), at=at, branch=branch)
    post(client, up, doc)


def _subscribe(client: TestClient, admin: dict[str, str], **body: Any) -> dict[str, Any]:
    r = client.post(SUBS, json={"system": "uvhttp", "name": "ops", **body}, headers=admin)
    assert r.status_code == 201, r.text
    return dict(r.json())


def _counts(session: Session) -> dict[str, int]:
    notify = ("notify_subscription", "notify_delivery", "procrastinate_jobs", "audit_event")
    own = {t: session.execute(text(f"SELECT count(*) FROM {t}")).scalar_one() for t in notify}
    return {**row_counts(session), **own}


def _deliveries(session: Session) -> list[dict[str, Any]]:
    rows = session.execute(
        text(
            "SELECT d.subscription_id, d.event, d.payload, d.status, j.task_name, j.args, "
            "j.queue_name FROM notify_delivery d JOIN procrastinate_jobs j ON j.id = d.job_id "
            "ORDER BY d.created_at"
        )
    ).mappings()
    return [dict(r) for r in rows]


def test_an_alert_and_its_recovery_are_written_to_the_outbox_with_their_jobs(
    client: TestClient, session: Session
) -> None:
    up = auth(token(session, "uvhttp"))
    admin = auth(token(session, "uvhttp", scope="admin"))
    _run(client, up, 100, 0)  # the system exists
    hook = _subscribe(client, admin, channel="webhook", target="http://127.0.0.1:9/hook")
    other = _subscribe(client, admin, channel="email", target="a@b.example", branch="dev")
    failed_only = _subscribe(
        client,
        admin,
        channel="slack",
        target="https://hooks.slack.test/T1/B2/xyzw",
        events=["run.failed"],
    )
    for at in range(1, 15):
        _run(client, up, 100, at)
    assert _deliveries(session) == []
    for at in range(15, 19):  # a 15 % drop in req/s, confirmed by the next runs
        _run(client, up, 85, at)
    opened = _deliveries(session)
    assert [(d["subscription_id"], d["event"]) for d in opened] == [(hook["id"], "alert.opened")]
    d = opened[0]
    assert (d["queue_name"], d["task_name"]) == ("notify", "benchdash.notify.deliver")
    assert d["status"] == "pending" and set(d["args"]) == {"delivery_id"}
    payload = d["payload"]
    assert payload["system"] == "uvhttp" and payload["branch"] == "main"
    assert payload["alert"]["change"].startswith("−1") and payload["alert"]["change"].endswith(
        " % req/s · worse"
    ), payload["alert"]["change"]  # a fall in req/s, in its own direction
    assert payload["alert"]["change"] in payload["text"] and "run #" in payload["text"]
    alert_id = client.get("/api/v1/alerts").json()[0]["id"]
    assert payload["alert"]["id"] == alert_id

    for at in range(19, 24):  # back at the old level: resolved
        _run(client, up, 100, at)
    events = [(x["subscription_id"], x["event"]) for x in _deliveries(session)]
    assert events == [(hook["id"], "alert.opened"), (hook["id"], "alert.resolved")]
    assert other["id"] not in {s for s, _ in events} and failed_only["id"] not in {
        s for s, _ in events
    }


def test_a_failed_run_is_written_in_the_reapers_transaction(
    client: TestClient, session: Session
) -> None:
    up = auth(token(session, "uvhttp"))
    admin = auth(token(session, "uvhttp", scope="admin"))
    _run(client, up, 100, 0)
    sub = _subscribe(
        client,
        admin,
        channel="slack",
        target="https://hooks.slack.test/T1/B2/abcd",
        events=["run.failed"],
    )
    session.execute(
        text(
            "INSERT INTO run (system_id, branch_id, trigger, status, accepted, created_at, "
            "started_at, heartbeat_at, ref) SELECT system_id, branch_id, 'manual', 'running', "
            "true, now(), now(), :old, 'main' FROM run LIMIT 1"
        ),
        {"old": utcnow() - timedelta(minutes=10)},
    )
    failed = lifecycle.reap(session=session, timeout_s=60)
    assert len(failed) == 1
    (d,) = _deliveries(session)
    assert (d["subscription_id"], d["event"]) == (sub["id"], "run.failed")
    assert d["payload"]["run"]["id"] == failed[0] and "heartbeats" in d["payload"]["text"]


def test_subscriptions_show_a_webhook_secret_once_and_mask_a_slack_url(
    client: TestClient, session: Session
) -> None:
    admin = auth(token(session, "uvhttp", scope="admin"))
    _run(client, auth(token(session, "uvhttp")), 100, 0)
    hook = _subscribe(client, admin, channel="webhook", target="https://example.test/hook")
    assert hook["secret"].startswith("whsec_") and len(hook["secret"]) > 40
    slack = _subscribe(
        client, admin, channel="slack", target="https://hooks.slack.test/T/B/s3cr3tXYZW"
    )
    assert slack["target"] == "https://hooks.slack.test/…XYZW" and slack["secret"] is None
    listed = client.get(SUBS, params={"system": "uvhttp"}, headers=admin).json()
    assert [s["id"] for s in listed] == [hook["id"], slack["id"]]
    assert all("secret" not in s for s in listed)
    stored = session.execute(text("SELECT secret FROM notify_subscription")).scalars().all()
    assert hook["secret"] not in stored and all("s3cr3t" not in (s or "") for s in stored)


def test_bad_input_is_a_clear_4xx_and_changes_nothing(client: TestClient, session: Session) -> None:
    admin = auth(token(session, scope="admin"))  # every system: an unknown one is a 404
    trigger = auth(token(session, "uvhttp", scope="trigger"))
    _run(client, auth(token(session, "uvhttp")), 100, 0)
    before = _counts(session)
    cases = [
        ({"channel": "email", "target": "not-an-address"}, 422),
        ({"channel": "webhook", "target": "ftp://x.test/h"}, 422),
        ({"channel": "pigeon", "target": "https://x.test"}, 422),
        ({"channel": "webhook", "target": "https://x.test", "events": ["test"]}, 422),
        ({"channel": "webhook", "target": "https://x.test", "events": []}, 422),
        ({"channel": "webhook", "target": "https://x.test", "system": "nope"}, 404),
    ]
    for body, status in cases:
        r = client.post(SUBS, json={"system": "uvhttp", "name": "x", **body}, headers=admin)
        assert r.status_code == status, (body, r.text)
        assert r.headers["content-type"] == "application/problem+json"
    body = {"system": "uvhttp", "name": "x", "channel": "webhook", "target": "https://x.test"}
    assert client.post(SUBS, json=body).status_code == 401
    assert client.post(SUBS, json=body, headers=trigger).status_code == 403
    assert client.get(SUBS).status_code == 401
    assert client.delete(f"{SUBS}/999999", headers=admin).status_code == 404
    assert client.post(f"{SUBS}/0/test", headers=admin).status_code == 422
    assert _counts(session) == before


def test_send_a_test_queues_one_delivery_and_delete_removes_the_log(
    client: TestClient, session: Session
) -> None:
    admin = auth(token(session, "uvhttp", scope="admin"))
    _run(client, auth(token(session, "uvhttp")), 100, 0)
    sub = _subscribe(client, admin, channel="webhook", target="https://example.test/hook")
    r = client.post(f"{SUBS}/{sub['id']}/test", headers=admin)
    assert r.status_code == 202 and r.json()["status"] == "pending" and r.json()["event"] == "test"
    log = client.get(f"{SUBS}/{sub['id']}/deliveries", headers=admin).json()
    assert [x["id"] for x in log] == [r.json()["id"]]
    assert log[0]["title"] == "Test notification for uvhttp" and log[0]["attempts"] == 0
    assert client.delete(f"{SUBS}/{sub['id']}", headers=admin).status_code == 204
    assert client.get(f"{SUBS}/{sub['id']}/deliveries", headers=admin).status_code == 404
    assert session.execute(text("SELECT count(*) FROM notify_delivery")).scalar() == 0


def test_slack_payload_shape() -> None:
    body = {
        "id": "d-1",
        "event": "alert.opened",
        "title": "Regression in uvhttp (main): x · req/s −11.8 % req/s · worse",
        "text": "Regression … −11.8 % req/s · worse. Confirmed fail step from run #12.",
    }
    msg = channels.slack_message(body)
    assert msg["text"] == body["text"]
    header, section, context = msg["blocks"]
    assert header == {"type": "header", "text": {"type": "plain_text", "text": body["title"]}}
    assert section["type"] == "section" and section["text"] == {
        "type": "mrkdwn",
        "text": body["text"],
    }
    assert context["type"] == "context" and "d-1" in context["elements"][0]["text"]
