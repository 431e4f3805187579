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


def _counts(session: Session) -> dict[str, Any]:
    tables = ("alert_summary", "audit_event", "series_restart", "notify_delivery")
    out: dict[str, Any] = {t: session.scalar(text(f"SELECT count(*) FROM {t}")) for t in tables}
    out["alerts"] = session.execute(
        text("SELECT status, count(*) FROM alert GROUP BY status ORDER BY status")
    ).all()
    out["summary"] = session.execute(
        text("SELECT status, resolution, assignee, issue_url FROM alert_summary ORDER BY id")
    ).all()
    return out


def test_the_summary_is_read_and_triaged_as_one(client: TestClient, session: Session) -> None:
    up = auth(token(session, "uvhttp"))
    trigger = auth(token(session, "uvhttp", scope="trigger"))
    history(client, up, range(15), 100)
    history(client, up, range(15, 19), 85)
    (card,) = client.get("/api/v1/alert-summaries", params={"system": "uvhttp"}).json()
    assert card["counts"] == {
        "alerts": 30, "active": 30, "fail": 30, "warn": 0, "benchmarks": 30, "testbeds": 1,
    }  # fmt: skip
    assert card["status"] == "open" and len(card["worst"]) == 3
    assert (card["last_good_commit"], card["first_bad_commit"]) == (f"{14:07x}", f"{15:07x}")
    assert client.get("/api/v1/alert-summaries", params={"system": "other"}).json() == []
    one = client.get(f"/api/v1/alert-summaries/{card['id']}").json()
    changes = [a["change_pct"] for a in one["alerts"]]
    assert len(changes) == 30 and changes == sorted(changes, reverse=True), "worst first"
    assert one["worst"][0]["id"] == one["alerts"][0]["id"]

    url = f"/api/v1/alert-summaries/{card['id']}"
    assert client.post(f"{url}/acknowledge").status_code == 401
    r = client.post(f"{url}/acknowledge", headers=trigger)
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "acknowledged" and r.json()["acknowledged_by"]
    assert {a["status"] for a in r.json()["alerts"]} == {"acknowledged"}
    assert client.get("/api/v1/alerts", params={"status": "open"}).json() == []

    issue = {"assignee": "ann", "issue_url": "https://issues.example.test/123"}
    r = client.patch(url, json=issue, headers=trigger)
    assert r.status_code == 200 and (r.json()["assignee"], r.json()["issue_url"]) == tuple(
        issue.values()
    )
    r = client.patch(url, json={"assignee": None}, headers=trigger)  # cleared; the URL stays
    assert (r.json()["assignee"], r.json()["issue_url"]) == (None, issue["issue_url"])

    r = client.post(f"{url}/accept", json={"note": "new allocator"}, headers=trigger)
    assert r.status_code == 200, r.text
    assert (r.json()["status"], r.json()["resolution"]) == ("resolved", "accepted")
    assert {a["status"] for a in r.json()["alerts"]} == {"resolved"}
    assert session.scalar(text("SELECT count(*) FROM series_restart")) == 30
    actions = session.execute(
        text("SELECT action FROM audit_event WHERE action LIKE 'alert_summary.%' ORDER BY id")
    ).scalars()
    assert list(actions) == [
        "alert_summary.acknowledge", "alert_summary.update", "alert_summary.update",
        "alert_summary.accept",
    ]  # fmt: skip
    assert client.post(f"{url}/acknowledge", headers=trigger).status_code == 409


def test_marking_invalid_acknowledges_and_bad_input_changes_nothing(
    client: TestClient, session: Session
) -> None:
    up = auth(token(session, "uvhttp"))
    trigger = auth(token(session, "uvhttp", scope="trigger"))
    other = auth(token(session, "elsewhere", scope="trigger"))
    history(client, up, range(15), 100)
    history(client, up, range(15, 19), 85, slowed=4)
    (card,) = client.get("/api/v1/alert-summaries").json()
    url = f"/api/v1/alert-summaries/{card['id']}"
    before = _counts(session)
    cases = [
        (url, {"issue_url": "ftp://x.test/1"}, "http(s) URL"),
        (url, {"issue_url": "not a url"}, "http(s) URL"),
        (url, {"issue_url": ""}, "at least 1"),
        (url, {"assignee": "x" * 121}, "at most 120"),
        (f"{url}/accept", {}, "note"),
        (f"{url}/invalid", {"note": ""}, "at least 1"),
    ]
    for path, body, words in cases:
        send = client.patch if path == url else client.post
        r = send(path, json=body, headers=trigger)
        assert r.status_code == 422 and words in r.text, (path, body, r.text)
    assert client.post(f"{url}/acknowledge", headers=other).status_code == 403
    assert (
        client.post("/api/v1/alert-summaries/999999/acknowledge", headers=trigger).status_code
        == 404
    )
    assert client.get("/api/v1/alert-summaries/0").status_code == 422
    assert client.get("/api/v1/alert-summaries", params={"status": "sleeping"}).status_code == 422
    assert _counts(session) == before

    r = client.post(f"{url}/invalid", json={"note": "noisy runner"}, headers=trigger)
    assert r.status_code == 200, r.text
    assert (r.json()["status"], r.json()["resolution"]) == ("acknowledged", "invalid")
    assert {a["status"] for a in r.json()["alerts"]} == {"acknowledged"}
