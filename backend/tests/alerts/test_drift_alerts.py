"""Drift alerts through the API: a slow drift opens one alert of kind 'drift' naming its
window and the runs that contributed most; no run of it is marked as a step."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session

from tests.fixtures.api import post
from tests.fixtures.factories import auth, document, metric, token

JITTER = (1.0, 1.002, 0.998, 1.001, 0.999)


def test_a_slow_drift_opens_one_drift_alert(client: TestClient, session: Session) -> None:
    up = auth(token(session, "uvhttp"))
    for at in range(100):  # req/s: 0.15 % fewer on every run from run 10 on
        value = 100 * (1 - 0.0015 * max(0, at - 10)) * JITTER[at % 5]
        post(client, up, document(metric(value=value), at=at))
    alerts = client.get("/api/v1/alerts").json()
    assert [a["kind"] for a in alerts] == ["drift"], alerts
    a = alerts[0]
    assert a["confirmed_by"] == "drift" and a["window_runs"] >= 20
    assert a["change_pct"] >= 5 and a["level"] in ("warn", "fail")
    assert a["explanation"].startswith("Drift: ") and "worsened it most" in a["explanation"]
    assert a["contributors"] and all(c["change_pct"] > 0 for c in a["contributors"])
    confirmed = session.execute(
        text("SELECT count(*) FROM measurement WHERE stage = 'confirmed'")
    ).scalar_one()
    assert confirmed == 0  # a drift names a window, not a step


def test_steps_stay_steps(client: TestClient, session: Session) -> None:
    up = auth(token(session, "uvhttp"))
    for at in range(30):
        value = (100 if at < 20 else 85) * JITTER[at % 5]
        post(client, up, document(metric(value=value), at=at))
    alerts = client.get("/api/v1/alerts").json()
    assert [(a["kind"], a["window_runs"], a["contributors"]) for a in alerts] == [
        ("step", None, [])
    ]
