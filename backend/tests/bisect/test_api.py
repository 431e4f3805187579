"""Bisections through the API, with the agent's side played by the test: an alert confirmed by
re-runs starts one; the listed commits queue the midpoint; each upload moves it on; a build
failure is skipped; cancel; bad input is a 4xx problem and changes nothing."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from benchdash.bisect import advance, auto
from tests.fixtures.api import post
from tests.fixtures.factories import auth, document, metric, noisy, row_counts, token
from tests.fixtures.manifests import MANIFEST


def sha(i: int) -> str:
    return f"{i:040x}"


def _upload(
    client: TestClient, h: dict[str, str], run_id: int | None, level: float, at: int, commit: str
) -> dict[str, Any]:
    samples = noisy(level, 0.002, n=5, seed=at)
    doc = document(
        metric("qps", "req/s", "higher_is_better", samples=samples),
        system="cachex",
        benchmark="cloud",
        parameters={},
        at=at,
    )
    doc["run"]["commit"] = commit
    if run_id is not None:
        doc["run"]["id"] = run_id
        doc["run"].pop("external_id")
    return post(client, h, doc)


def _queue(client: TestClient, h: dict[str, str], ref: str) -> int:
    r = client.post("/api/v1/runs", json={"system": "cachex", "ref": ref}, headers=h)
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def _alert_with_bisection(
    client: TestClient, session: Session
) -> tuple[dict[str, str], dict[str, Any]]:
    h = auth(token(session, "cachex", scope="agent+upload+trigger"))
    assert client.put("/api/v1/systems/cachex/manifest", json=MANIFEST, headers=h).is_success
    for at in range(12):  # CI history at 1000 req/s
        _upload(client, h, None, 1000, at, sha(at))
    suspect = _queue(client, h, sha(100))
    _upload(client, h, suspect, 700, 20, sha(100))
    runs = client.get("/api/v1/runs", params={"system": "cachex", "limit": 100}).json()["items"]
    for i, rerun in enumerate(r for r in runs if r["rerun_of"] == suspect):
        _upload(client, h, rerun["id"], 700, 21 + i, sha(100))
    alerts = client.get("/api/v1/alerts").json()
    assert len(alerts) == 1 and alerts[0]["first_bad_commit"] is None
    listed = client.get(f"/api/v1/alerts/{alerts[0]['id']}/bisections").json()
    assert len(listed) == 1
    return h, listed[0]


def test_a_confirmed_alert_is_bisected_to_its_first_bad_commit(
    client: TestClient, session: Session
) -> None:
    h, b = _alert_with_bisection(client, session)
    assert b["state"] == "running" and b["commits"] is None
    assert (b["good_commit"], b["bad_commit"]) == (sha(11), sha(100))
    task = client.get(f"/api/v1/runs/{b['revlist_run_id']}").json()
    assert task["trigger"] == "bisect" and task["task"]["kind"] == "revlist"
    assert task["task"]["good"] == sha(11) and task["task"]["first_parent"] is True
    commits = [{"sha": sha(200 + i), "subject": f"s{i}", "author": f"a{i}"} for i in range(6)]
    commits.append({"sha": sha(100), "subject": "the bad end", "author": "x"})
    r = client.post(
        f"/api/v1/runs/{b['revlist_run_id']}/commits", json={"commits": commits}, headers=h
    )
    assert r.status_code == 200, r.text
    b = r.json()
    assert len(b["commits"]) == 7 and b["expected_steps"] == 3
    first_bad = 4  # sha(204) makes it slower
    at = 30
    while b["state"] == "running":
        step = b["steps"][-1]
        assert step["verdict"] == "pending" and step["run_status"] == "queued"
        run = client.get(f"/api/v1/runs/{step['run_id']}").json()
        assert run["requested_benchmarks"] == ["cloud"] and run["trigger"] == "bisect"
        bad = step["position"] >= first_bad
        _upload(client, h, step["run_id"], 700 if bad else 1000, at, step["commit"])
        at += 1
        b = client.get(f"/api/v1/bisections/{b['id']}").json()
        assert b["steps"][len(b["steps"]) - (2 if b["state"] == "running" else 1)]["verdict"] == (
            "bad" if bad else "good"
        )
    assert b["state"] == "found", b
    assert b["culprit"] == {"sha": sha(204), "subject": "s4", "author": "a4"}
    assert len(b["steps"]) <= 3
    alert = client.get("/api/v1/alerts").json()[0]
    assert alert["first_bad_commit"]["sha"] == sha(204)
    assert alert["status"] == "open"  # a step at a good commit resolves nothing


def test_a_build_failure_is_skipped_and_a_second_failure_fails(
    client: TestClient, session: Session
) -> None:
    h, b = _alert_with_bisection(client, session)
    commits = [{"sha": sha(300 + i)} for i in range(4)] + [{"sha": sha(100)}]
    b = client.post(
        f"/api/v1/runs/{b['revlist_run_id']}/commits", json={"commits": commits}, headers=h
    ).json()
    first = b["steps"][0]
    report = {"status": "failed", "message": "the build failed; see the log"}
    assert client.post(f"/api/v1/runs/{first['run_id']}/report", json=report, headers=h).is_success
    assert advance.advance_pending(session=session) == 1
    b = client.get(f"/api/v1/bisections/{b['id']}").json()
    assert [s["verdict"] for s in b["steps"]] == ["skipped", "pending"]
    assert b["skipped"] == [first["commit"]] and b["steps"][1]["commit"] != first["commit"]
    died = {"status": "failed", "message": "the runner agent stopped sending heartbeats"}
    for attempt in range(2):
        step = b["steps"][-1]
        client.post(f"/api/v1/runs/{step['run_id']}/report", json=died, headers=h)
        advance.advance_pending(session=session)
        b = client.get(f"/api/v1/bisections/{b['id']}").json()
        if attempt == 0:
            assert b["steps"][-1]["commit"] == step["commit"], "retried once"
    assert b["state"] == "failed"
    assert "failed twice" in b["message"] and step["commit"][:12] in b["message"]


def test_cancel_stops_it_and_its_run(client: TestClient, session: Session) -> None:
    h, b = _alert_with_bisection(client, session)
    r = client.post(f"/api/v1/bisections/{b['id']}/cancel", headers=h)
    assert r.status_code == 200 and r.json()["state"] == "cancelled"
    assert auto.start_for_alerts(session=session, run_ids=None) == []  # never a second by itself
    assert client.get(f"/api/v1/runs/{b['revlist_run_id']}").json()["status"] == "cancelled"
    again = client.post(f"/api/v1/bisections/{b['id']}/cancel", headers=h)
    assert again.status_code == 409
    assert again.headers["content-type"].startswith("application/problem+json")
    restart = client.post(f"/api/v1/alerts/{b['alert_id']}/bisections", json={}, headers=h)
    assert restart.status_code == 201 and restart.json()["id"] != b["id"]
    twice = client.post(f"/api/v1/alerts/{b['alert_id']}/bisections", json={}, headers=h)
    assert twice.status_code == 409


def test_bad_input_is_refused_and_changes_nothing(client: TestClient, session: Session) -> None:
    h, b = _alert_with_bisection(client, session)
    before = row_counts(session)
    cases = [
        ("post", "/api/v1/bisections", {"good_run_id": 0, "bad_run_id": 1}, 422),
        (
            "post",
            "/api/v1/bisections",
            {
                "good_run_id": b["good_run_id"],
                "bad_run_id": b["bad_run_id"],
                "benchmark": "nope",
                "metric": "qps",
            },
            404,  # a benchmark the system does not have: not found, as an unknown run
        ),
        (
            "post",
            "/api/v1/bisections",
            {
                "good_run_id": 99999,
                "bad_run_id": b["bad_run_id"],
                "benchmark": "cloud",
                "metric": "qps",
            },
            404,
        ),
        ("post", f"/api/v1/runs/{b['revlist_run_id']}/commits", {"commits": [{"sha": "xyz"}]}, 422),
        ("post", f"/api/v1/runs/{b['bad_run_id']}/commits", {"commits": []}, 404),
        ("post", "/api/v1/alerts/99999/bisections", {}, 404),
        ("get", "/api/v1/bisections/99999", None, 404),
        ("post", "/api/v1/bisections/0/cancel", None, 422),
    ]
    for method, url, body, code in cases:
        r = client.request(method.upper(), url, json=body, headers=h)
        assert r.status_code == code, (url, r.text)
        assert r.headers["content-type"].startswith("application/problem+json")
    assert client.post(f"/api/v1/bisections/{b['id']}/cancel").status_code == 401
    assert row_counts(session) == before
