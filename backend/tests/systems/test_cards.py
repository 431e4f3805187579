"""The overview's cards (GET /api/v1/systems): each system's newest completed run by start time
and its verdict counts, read for every system at once."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests.fixtures.api import post
from tests.fixtures.factories import auth, document, metric, token


def test_each_card_shows_its_own_newest_run(client: TestClient, session: Session) -> None:
    up = auth(token(session, "uvhttp", "cachex"))
    later = post(client, up, document(metric(samples=[100.0] * 5), at=10))["run"]["id"]
    earlier = post(client, up, document(metric(samples=[100.0] * 5), at=5))["run"]["id"]
    assert earlier > later  # uploaded after it, started before it
    cachex = post(client, up, document(metric(samples=[7.0] * 3), system="cachex", at=1))
    cards = {c["slug"]: c for c in client.get("/api/v1/systems").json()}
    assert cards["uvhttp"]["latest_run"]["id"] == later
    assert cards["cachex"]["latest_run"]["id"] == cachex["run"]["id"]
    assert cards["uvhttp"]["latest_counts"] == cards["uvhttp"]["latest_run"]["counts"]
    assert sum(cards["uvhttp"]["latest_counts"].values()) == 1
    assert cards["cachex"]["latest_run"]["system"] == "cachex"
    assert all(c["open_alerts"] == 0 for c in cards.values())
    one = client.get("/api/v1/systems/uvhttp").json()
    assert (
        one["latest_run"]["id"] == later
        and one["latest_counts"] == cards["uvhttp"]["latest_counts"]
    )
