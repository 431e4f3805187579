"""Triggered runs: queue, agent reports, cancel, reaper, results, event stream."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash.runs import lifecycle
from tests.fixtures.factories import auth, document, metric, token
from tests.fixtures.manifests import MANIFEST


def _setup(client: TestClient, session: Session) -> tuple[dict[str, str], dict[str, str]]:
    agent = auth(token(session, "cachex", scope="agent+upload"))
    r = client.put("/api/v1/systems/cachex/manifest", json=MANIFEST, headers=agent)
    assert r.status_code == 200, r.text
    return agent, auth(token(session, "cachex", scope="trigger"))


def _trigger(client: TestClient, headers: dict[str, str], **body: Any) -> dict[str, Any]:
    r = client.post(
        "/api/v1/runs", json={"system": "cachex", "ref": "main", **body}, headers=headers
    )
    assert r.status_code == 201, r.text
    return dict(r.json())


def test_manifest_sets_thresholds_and_schedule(client: TestClient, session: Session) -> None:
    _setup(client, session)
    detail = client.get("/api/v1/systems/cachex").json()
    p99 = next(m for m in detail["metrics"] if m["name"] == "latency_p99_us")
    assert (p99["warn_threshold"], p99["fail_threshold"]) == (10, 20)
    assert (
        detail["next_scheduled_at"].endswith("03:00:00Z")
        and detail["next_scheduled_profile"] == "quick"
    )
    assert sorted(detail["profiles"]) == ["quick", "standard"]
    bad = {**MANIFEST, "schedule": {"cron": "every day", "profile": "quick"}}
    r = client.put(
        "/api/v1/systems/cachex/manifest", json=bad, headers=auth(token(session, "cachex"))
    )
    assert r.status_code == 422 and "cron" in r.json()["detail"]


def test_trigger_queues_a_job_on_the_system_queue(client: TestClient, session: Session) -> None:
    _, trig = _setup(client, session)
    run = _trigger(client, trig, profile="quick", benchmarks=["cloud"])
    assert run["status"] == "queued" and run["ref"] == "main" and run["branch"] == "main"
    assert _trigger(client, trig, ref="HEAD")["branch"] == "main"
    assert _trigger(client, trig, ref="feature/x")["branch"] == "feature/x"
    assert _trigger(client, trig, ref="9f1c2e7")["branch"] == "main"
    job = session.execute(
        text(
            "SELECT queue_name, task_name, args, status FROM procrastinate_jobs "
            "WHERE id = (SELECT job_id FROM run WHERE id = :id)"
        ),
        {"id": run["id"]},
    ).one()
    assert job.queue_name == "system.cachex" and job.task_name == "benchdash.run"
    assert job.args == {"run_id": run["id"]} and job.status == "todo"


def test_trigger_validation(client: TestClient, session: Session) -> None:
    trig = auth(token(session, "cachex", scope="trigger"))
    r = client.post("/api/v1/runs", json={"system": "cachex"}, headers=trig)
    assert r.status_code == 404  # unknown system
    _setup(client, session)
    r = client.post("/api/v1/runs", json={"system": "cachex", "benchmarks": ["nope"]}, headers=trig)
    assert r.status_code == 422 and "nope" in r.json()["detail"]
    r = client.post("/api/v1/runs", json={"system": "cachex", "profile": "full"}, headers=trig)
    assert r.status_code == 422 and "full" in r.json()["detail"]
    r = client.post(
        "/api/v1/runs", json={"system": "cachex"}, headers=auth(token(session, "cachex"))
    )
    assert r.status_code == 403 and "trigger" in r.json()["detail"]
    r = client.post("/api/v1/runs", json={"system": "cachex"})
    assert r.status_code == 401


def test_cancel_queued_run_cancels_its_job(client: TestClient, session: Session) -> None:
    _, trig = _setup(client, session)
    run = _trigger(client, trig)
    r = client.post(f"/api/v1/runs/{run['id']}/cancel", headers=trig)
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    status = session.execute(
        text(
            "SELECT status FROM procrastinate_jobs WHERE id = "
            "(SELECT job_id FROM run WHERE id = :id)"
        ),
        {"id": run["id"]},
    ).scalar()
    assert status == "cancelled"
    assert client.post(f"/api/v1/runs/{run['id']}/cancel", headers=trig).status_code == 409


def test_agent_reports_then_results_complete_the_run(client: TestClient, session: Session) -> None:
    agent, trig = _setup(client, session)
    run_id = _trigger(client, trig)["id"]
    for body in (
        {"status": "building", "lines": ["go build ./..."], "agent": "host-a/1"},
        {
            "status": "running",
            "progress": {"done": 0, "total": 2, "scenario": "cloud", "percent": 0},
        },
        {"progress": {"done": 1, "total": 2, "scenario": "shared", "percent": 50, "eta_s": 3}},
        {"status": "uploading"},
    ):
        r = client.post(f"/api/v1/runs/{run_id}/report", json=body, headers=agent)
        assert r.status_code == 200, r.text
        assert r.json()["cancel_requested"] is False
    doc = document(
        metric("qps", samples=[10.0, 10.1, 9.9]),
        system="cachex",
        benchmark="cloud",
        external_id=f"agent-{run_id}",
    )
    doc["run"]["id"] = run_id
    doc["run"]["branch"] = "ignored-branch"
    r = client.post("/api/v1/results", json=doc, headers=agent)
    assert r.status_code == 201, r.text
    assert r.json()["run"]["id"] == run_id and r.json()["run"]["status"] == "completed"
    assert r.json()["run"]["branch"] == "main"
    kinds = session.execute(
        text("SELECT kind, data->>'status' FROM run_event WHERE run_id = :id ORDER BY id"),
        {"id": run_id},
    ).all()
    states = [s for k, s in kinds if k == "state"]
    assert states == ["queued", "building", "running", "uploading", "completed"]
    assert sum(k == "progress" for k, _ in kinds) == 2
    # An illegal transition is refused.
    r = client.post(f"/api/v1/runs/{run_id}/report", json={"status": "running"}, headers=agent)
    assert r.status_code == 409


def test_cancel_running_run_is_relayed_and_results_refused(
    client: TestClient, session: Session
) -> None:
    agent, trig = _setup(client, session)
    run_id = _trigger(client, trig)["id"]
    client.post(f"/api/v1/runs/{run_id}/report", json={"status": "running"}, headers=agent)
    r = client.post(f"/api/v1/runs/{run_id}/cancel", headers=trig)
    assert r.status_code == 200 and r.json()["status"] == "running" and r.json()["cancel_requested"]
    ack = client.post(f"/api/v1/runs/{run_id}/report", json={}, headers=agent).json()
    assert ack == {"status": "running", "cancel_requested": True}
    doc = document(metric("qps", samples=[1.0, 1.0, 1.0]), system="cachex", benchmark="cloud")
    doc["run"]["id"] = run_id
    before = session.execute(text("SELECT count(*) FROM measurement")).scalar()
    r = client.post("/api/v1/results", json=doc, headers=agent)
    assert r.status_code == 409 and "cancelled" in r.json()["detail"]
    assert session.execute(text("SELECT count(*) FROM measurement")).scalar() == before
    r = client.post(f"/api/v1/runs/{run_id}/report", json={"status": "cancelled"}, headers=agent)
    assert r.json()["status"] == "cancelled"


def test_reaper_fails_silent_runs(client: TestClient, session: Session) -> None:
    agent, trig = _setup(client, session)
    run_id = _trigger(client, trig)["id"]
    client.post(f"/api/v1/runs/{run_id}/report", json={"status": "running"}, headers=agent)
    assert lifecycle.reap(session=session, timeout_s=60) == []
    session.execute(
        text("UPDATE run SET heartbeat_at = now() - interval '61 seconds' WHERE id = :id"),
        {"id": run_id},
    )
    assert lifecycle.reap(session=session, timeout_s=60) == [run_id]
    detail = client.get(f"/api/v1/runs/{run_id}").json()
    assert detail["status"] == "failed" and "heartbeats" in detail["message"]


def test_event_stream_replays_a_finished_run(client: TestClient, session: Session) -> None:
    agent, trig = _setup(client, session)
    run_id = _trigger(client, trig)["id"]
    client.post(
        f"/api/v1/runs/{run_id}/report",
        json={"status": "running", "lines": ["hello <b>"]},
        headers=agent,
    )
    client.post(
        f"/api/v1/runs/{run_id}/report", json={"status": "failed", "message": "boom"}, headers=agent
    )
    t0 = time.monotonic()
    with client.stream("GET", f"/api/v1/runs/{run_id}/events") as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        body = "".join(r.iter_text())
    assert time.monotonic() - t0 < 10
    assert body.startswith("event: snapshot\n")
    assert "event: log" in body and "hello <b>" in body
    assert body.rstrip().endswith('event: end\ndata: {"status": "failed"}')
    # Resuming after the last event id sends only the end.
    last = max(int(line[4:]) for line in body.splitlines() if line.startswith("id: "))
    with client.stream(
        "GET", f"/api/v1/runs/{run_id}/events", headers={"Last-Event-ID": str(last)}
    ) as r:
        tail = "".join(r.iter_text())
    assert "event: log" not in tail and "event: end" in tail
    assert client.get("/api/v1/runs/99999/events").status_code == 404


def test_the_agent_reads_the_benchmarks_a_run_asked_for(
    client: TestClient, session: Session
) -> None:
    agent, trigger = _setup(client, session)
    run = _trigger(client, trigger, benchmarks=["shared"])
    seen = client.get(f"/api/v1/runs/{run['id']}", headers=agent).json()
    assert seen["requested_benchmarks"] == ["shared"]
    whole = _trigger(client, trigger)
    assert client.get(f"/api/v1/runs/{whole['id']}").json()["requested_benchmarks"] is None
