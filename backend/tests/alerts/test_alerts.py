"""Alerts open on fail, are acknowledged, and resolve on recovery."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests.fixtures.api import post
from tests.fixtures.factories import auth, document, metric, token

SPREAD = (0.998, 1.0, 1.002)


def _run(client: TestClient, headers: dict[str, str], value: float, at: int) -> dict[str, object]:
    return post(client, headers, document(metric(samples=[value * f for f in SPREAD]), at=at))


def test_fail_opens_one_alert_ack_then_recovery_resolves(
    client: TestClient, session: Session
) -> None:
    up = auth(token(session, "uvhttp"))
    for i in range(5):
        _run(client, up, 100, i)
    _run(client, up, 85, 5)
    _run(client, up, 85, 6)  # still failing: the same alert stays the only one
    alerts = client.get("/api/v1/alerts").json()
    assert len(alerts) == 1 and alerts[0]["status"] == "open"
    assert alerts[0]["benchmark"] == "medium_concurrency" and "slower" in alerts[0]["explanation"]

    assert client.post(f"/api/v1/alerts/{alerts[0]['id']}/acknowledge").status_code == 401
    r = client.post(
        f"/api/v1/alerts/{alerts[0]['id']}/acknowledge",
        headers=auth(token(session, "uvhttp", scope="trigger")),
    )
    assert r.status_code == 200 and r.json()["status"] == "acknowledged"
    assert client.get("/api/v1/alerts", params={"status": "open"}).json() == []

    for i in range(7, 12):  # the series recovers
        _run(client, up, 100, i)
    assert client.get("/api/v1/alerts").json() == []
    resolved = client.get("/api/v1/alerts", params={"status": "resolved"}).json()
    assert [a["id"] for a in resolved] == [alerts[0]["id"]]


def test_unknown_alert_and_status(client: TestClient) -> None:
    assert client.get("/api/v1/alerts", params={"status": "sleeping"}).status_code == 422
    r = client.post("/api/v1/alerts/999999/acknowledge")
    assert r.status_code == 404 and r.headers["content-type"].startswith("application/problem+json")


def test_a_regression_the_baseline_absorbed_keeps_its_alert(
    client: TestClient, session: Session
) -> None:
    up = auth(token(session, "uvhttp"))
    for i in range(5):
        _run(client, up, 100, i)
    for i in range(5, 15):  # the step stays: the median of the last 5 catches up, verdicts go ok
        _run(client, up, 85, i)
    levels = [v["level"] for v in _run(client, up, 85, 15)["verdicts"]]
    assert levels == ["ok"]
    open_ = client.get("/api/v1/alerts", params={"status": "open"}).json()
    assert len(open_) == 1, "still slower than before the regression: the alert stays open"
    _run(client, up, 99, 16)  # back within 5 % of the baseline the alert was opened against
    assert client.get("/api/v1/alerts", params={"status": "open"}).json() == []
