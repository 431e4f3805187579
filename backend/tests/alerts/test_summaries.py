"""Alert summaries: one commit that slows thirty benchmarks opens thirty alerts in one summary,
tells each subscription once (then once more when it resolves), and is triaged as one."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session

from tests.fixtures.api import post
from tests.fixtures.factories import auth, document, metric, token

JITTER = (1.0, 1.002, 0.998, 1.001, 0.999)
BENCHMARKS = 30
SUBS = "/api/v1/notifications/subscriptions"


def wide(
    value: float, at: int, *, slowed: int = BENCHMARKS, testbed: str = "tb-1"
) -> dict[str, Any]:
    """One run of BENCHMARKS benchmarks; the first `slowed` of them at `value`, the rest at 100."""
    doc = document(at=at, testbed=testbed)
    doc["run"]["external_id"] += f"-{testbed}"
    doc["results"] = [
        {
            "benchmark": f"bench_{i:02d}",
            "parameters": {},
            "metrics": [metric(value=(value if i < slowed else 100) * JITTER[(at + i) % 5])],
        }
        for i in range(BENCHMARKS)
    ]
    return doc


def history(client: TestClient, up: dict[str, str], runs: range, value: float, **kw: Any) -> None:
    for at in runs:
        post(client, up, wide(value, at, **kw))


def subscribe(client: TestClient, admin: dict[str, str]) -> list[int]:
    ids = []
    for body in (
        {"channel": "webhook", "target": "http://127.0.0.1:9/hook"},
        {"channel": "slack", "target": "https://hooks.slack.test/T1/B2/abcd"},
    ):
        r = client.post(SUBS, json={"system": "uvhttp", "name": "ops", **body}, headers=admin)
        assert r.status_code == 201, r.text
        ids.append(r.json()["id"])
    return ids


def deliveries(session: Session) -> list[dict[str, Any]]:
    rows = session.execute(
        text("SELECT subscription_id, event, payload FROM notify_delivery ORDER BY created_at, id")
    ).mappings()
    return [dict(r) for r in rows]


def test_one_commit_slowing_30_benchmarks_is_one_summary_and_one_notification(
    client: TestClient, session: Session
) -> None:
    up = auth(token(session, "uvhttp"))
    admin = auth(token(session, "uvhttp", scope="admin"))
    history(client, up, range(15), 100)
    subs = subscribe(client, admin)
    history(client, up, range(15, 19), 85)  # one commit (at 15) slows all thirty
    alerts = client.get("/api/v1/alerts").json()
    assert len(alerts) == BENCHMARKS
    assert len({a["summary_id"] for a in alerts}) == 1 and alerts[0]["summary_id"] is not None
    told = deliveries(session)
    assert sorted((d["subscription_id"], d["event"]) for d in told) == [
        (s, "alert.opened") for s in subs
    ], "one notification per subscription, not one per alert"
    summary = told[0]["payload"]["summary"]
    assert summary["counts"]["alerts"] == BENCHMARKS and summary["counts"]["fail"] == BENCHMARKS
    assert summary["range"]["first_bad_commit"] == f"{15:07x}"
    assert summary["range"]["last_good_commit"] == f"{14:07x}"
    assert len(summary["worst"]) == 5 and "and 25 more" in told[0]["payload"]["text"]
    assert told[0]["payload"]["title"].startswith("Regression in uvhttp (main): 30 series")

    history(client, up, range(19, 24), 100)  # every series recovers
    assert client.get("/api/v1/alerts").json() == []
    events = sorted((d["subscription_id"], d["event"]) for d in deliveries(session))
    assert events == sorted(
        [(s, "alert.opened") for s in subs] + [(s, "alert.resolved") for s in subs]
    )
    status = session.execute(text("SELECT status FROM alert_summary")).scalars().all()
    assert status == ["resolved"]


def test_series_that_join_later_send_one_update_and_other_testbeds_join_too(
    client: TestClient, session: Session
) -> None:
    up = auth(token(session, "uvhttp"))
    admin = auth(token(session, "uvhttp", scope="admin"))
    history(client, up, range(15), 100)
    history(client, up, range(15), 100, testbed="tb-2")
    subs = subscribe(client, admin)
    history(client, up, range(15, 19), 85, slowed=3)
    opened = deliveries(session)
    assert len(opened) == len(subs)
    session.execute(text("UPDATE notify_delivery SET status = 'delivered'"))  # the worker sent them
    history(client, up, range(15, 19), 85, slowed=3, testbed="tb-2")  # the same commits, elsewhere
    alerts = client.get("/api/v1/alerts").json()
    assert len(alerts) == 6 and {a["testbed"] for a in alerts} == {"tb-1", "tb-2"}
    assert len({a["summary_id"] for a in alerts}) == 1
    later = deliveries(session)[len(opened) :]
    assert sorted((d["subscription_id"], d["event"]) for d in later) == [
        (s, "alert.updated") for s in subs
    ], "three series joined: one update per subscription"
    assert later[0]["payload"]["summary"]["counts"]["alerts"] == 6
