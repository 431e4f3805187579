"""Alerts are earned: confirmed before they open, one per step naming its first bad commit,
acknowledged on request, resolved when the series is back at its old level."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests.fixtures.api import post, verdict_copies_agree
from tests.fixtures.factories import auth, document, metric, token

JITTER = (1.0, 1.002, 0.998, 1.001, 0.999)  # about 0.2 % run to run


def _run(client: TestClient, headers: dict[str, str], value: float, at: int) -> dict[str, Any]:
    return post(client, headers, document(metric(value=value * JITTER[at % 5]), at=at))


def _stable(client: TestClient, headers: dict[str, str], runs: int = 15) -> None:
    for i in range(runs):
        _run(client, headers, 100, i)


def test_a_lasting_step_opens_one_alert_naming_its_first_commit(
    client: TestClient, session: Session
) -> None:
    up = auth(token(session, "uvhttp"))
    _stable(client, up)
    first = _run(client, up, 85, 15)  # a 15 % drop in req/s
    assert first["verdicts"][0]["stage"] == "suspected"
    assert client.get("/api/v1/alerts").json() == [], "one run is a suspicion, not an alert"
    for at in range(16, 19):  # the next runs stay at the new level: confirmed within 3 runs
        _run(client, up, 85, at)
    alerts = client.get("/api/v1/alerts").json()
    assert len(alerts) == 1 and alerts[0]["status"] == "open"
    alert = alerts[0]
    assert alert["run_id"] == first["run"]["id"]  # the step's first bad run …
    assert alert["commit"] == first["run"]["commit"]  # … and its commit
    assert alert["last_good_commit"] == f"{14:07x}"  # the commit range starts after the last good
    assert alert["level"] == "fail" and alert["change_pct"] > 10
    run = client.get(f"/api/v1/runs/{first['run']['id']}").json()
    assert run["measurements"][0]["stage"] == "confirmed"
    assert [a["id"] for a in run["alerts"]] == [alert["id"]]  # the run page links its alert
    later = client.get(f"/api/v1/runs/{first['run']['id'] + 1}").json()
    assert later["alerts"] == []
    verdict_copies_agree(session)

    for at in range(19, 24):  # the step stays: still one alert for it
        _run(client, up, 85, at)
    assert len(client.get("/api/v1/alerts").json()) == 1

    assert client.post(f"/api/v1/alerts/{alert['id']}/acknowledge").status_code == 401
    r = client.post(
        f"/api/v1/alerts/{alert['id']}/acknowledge",
        headers=auth(token(session, "uvhttp", scope="trigger")),
    )
    assert r.status_code == 200 and r.json()["status"] == "acknowledged"
    assert client.get("/api/v1/alerts", params={"status": "open"}).json() == []

    for at in range(24, 28):  # the series recovers to its old level
        _run(client, up, 100, at)
    assert client.get("/api/v1/alerts").json() == []
    resolved = client.get("/api/v1/alerts", params={"status": "resolved"}).json()
    assert [a["id"] for a in resolved] == [alert["id"]]


def test_a_single_spike_opens_no_alert(client: TestClient, session: Session) -> None:
    up = auth(token(session, "uvhttp"))
    _stable(client, up)
    spike = _run(client, up, 80, 15)
    assert spike["verdicts"][0]["level"] == "fail"
    for at in range(16, 22):
        _run(client, up, 100, at)
    assert client.get("/api/v1/alerts", params={"status": ["open", "resolved"]}).json() == []


def test_unknown_alert_and_status(client: TestClient) -> None:
    assert client.get("/api/v1/alerts", params={"status": "sleeping"}).status_code == 422
    r = client.post("/api/v1/alerts/999999/acknowledge")
    assert r.status_code == 404 and r.headers["content-type"].startswith("application/problem+json")


def test_an_accepted_change_restarts_the_baseline_and_closes_its_alert(
    client: TestClient, session: Session
) -> None:
    up = auth(token(session, "uvhttp"))
    _stable(client, up)
    first = _run(client, up, 85, 15)
    for at in range(16, 19):
        _run(client, up, 85, at)
    params = {
        "system": "uvhttp",
        "benchmark": "medium_concurrency",
        "metric": "requests_per_second",
    }
    answer = client.get("/api/v1/series", params=params)
    series, etag = answer.json(), answer.headers["etag"]
    assert [(s["run_id"], s["status"]) for s in series["steps"]] == [(first["run"]["id"], "open")]
    run = client.get(f"/api/v1/runs/{first['run']['id']}").json()["measurements"][0]
    assert run["stage"] == "confirmed", run
    assert "Confirmed by" in run["explanation"]
    change = {**params, "run_id": first["run"]["id"], "note": "expected: new allocator"}
    assert client.post("/api/v1/series/changes", json=change, headers=up).status_code == 403
    trigger = auth(token(session, "uvhttp", scope="trigger"))
    r = client.post("/api/v1/series/changes", json=change, headers=trigger)
    assert r.status_code == 201, r.text
    assert client.get("/api/v1/alerts").json() == [], "the accepted step's alert is closed"
    fresh = client.get("/api/v1/series", params=params, headers={"If-None-Match": etag})
    assert fresh.status_code == 200, "a stale ETag must not hide the accepted change"
    series = fresh.json()
    run = client.get(f"/api/v1/runs/{first['run']['id']}").json()["measurements"][0]
    assert run["accepted_change"] == "expected: new allocator"
    assert [c["note"] for c in series["changes"]] == ["expected: new allocator"]
    # The baseline restarted at the step: 85 is the new normal, no suspicion, no new alert.
    for at in range(19, 25):
        v = _run(client, up, 85, at)["verdicts"][0]
        assert v["stage"] is None and v["level"] in ("ok", "noisy", "learning", "no_baseline"), v
    assert client.get("/api/v1/alerts").json() == []
    bad = client.post(
        "/api/v1/series/changes", json={**change, "run_id": 2**31 - 1}, headers=trigger
    )
    assert bad.status_code == 404
