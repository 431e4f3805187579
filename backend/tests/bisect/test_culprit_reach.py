"""A found first bad commit reaches people: the alert's step on the series (the chart marker,
single and batch reads) names it, and the system's subscribers get an 'alert.bisected' message
with its sha, subject and author."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session

from tests.bisect.test_api import _alert_with_bisection, _upload, sha
from tests.fixtures.factories import auth, token

SUBS = "/api/v1/notifications/subscriptions"
SERIES = {"system": "cachex", "benchmark": "cloud", "metric": "qps"}


def _bisect_to(client: TestClient, h: dict[str, str], b: dict[str, Any], bad_from: int) -> Any:
    commits = [
        {"sha": sha(500 + i), "subject": f"change {i}", "author": f"Dev {i} <d{i}@x.test>"}
        for i in range(6)
    ] + [{"sha": sha(100), "subject": "the bad end", "author": "x"}]
    b = client.post(
        f"/api/v1/runs/{b['revlist_run_id']}/commits", json={"commits": commits}, headers=h
    ).json()
    at = 40
    while b["state"] == "running":
        step = b["steps"][-1]
        _upload(
            client,
            h,
            step["run_id"],
            700 if step["position"] >= bad_from else 1000,
            at,
            step["commit"],
        )
        at += 1
        b = client.get(f"/api/v1/bisections/{b['id']}").json()
    return b


def _step(body: dict[str, Any]) -> dict[str, Any]:
    (step,) = body["steps"]
    return dict(step)


def test_the_first_bad_commit_is_on_the_step_and_sent_to_subscribers(
    client: TestClient, session: Session
) -> None:
    admin = auth(token(session, "cachex", scope="admin"))
    h, b = _alert_with_bisection(client, session)
    body = {"system": "cachex", "name": "perf", "channel": "webhook", "target": "https://x.test/h"}
    r = client.post(SUBS, json=body, headers=admin)
    assert r.status_code == 201, r.text
    assert "alert.bisected" in r.json()["events"]  # a new subscription hears it by default
    only_runs = {**body, "name": "runs", "events": ["run.failed"]}
    assert client.post(SUBS, json=only_runs, headers=admin).status_code == 201
    before = client.get("/api/v1/series", params=SERIES)
    assert _step(before.json())["first_bad_commit"] is None

    b = _bisect_to(client, h, b, bad_from=2)
    assert b["state"] == "found" and b["culprit"]["sha"] == sha(502)
    culprit = {"sha": sha(502), "subject": "change 2", "author": "Dev 2 <d2@x.test>"}
    after = client.get(
        "/api/v1/series", params=SERIES, headers={"if-none-match": before.headers["etag"]}
    )
    assert after.status_code == 200  # the ETag changed with the culprit
    assert _step(after.json())["first_bad_commit"] == culprit
    batch = client.get("/api/v1/series/batch", params={"system": "cachex"}).json()
    (series,) = [s for s in batch["series"] if s["steps"]]
    assert _step(series)["first_bad_commit"] == culprit

    rows = session.execute(
        text(
            "SELECT s.name, d.payload FROM notify_delivery d JOIN notify_subscription s "
            "ON s.id = d.subscription_id WHERE d.event = 'alert.bisected'"
        )
    ).all()
    assert [r[0] for r in rows] == ["perf"]  # not the subscription that hears of runs only
    payload = rows[0][1]
    assert payload["first_bad_commit"] == culprit
    assert payload["alert"]["id"] == b["alert_id"] and payload["alert"]["bisection_id"] == b["id"]
    assert payload["title"] == (
        f"Bisected in cachex (main): cloud · qps −30.0 % req/s · worse since {sha(502)[:12]}"
    )
    assert f"is {sha(502)[:12]} “change 2” by Dev 2 <d2@x.test>" in payload["text"]
