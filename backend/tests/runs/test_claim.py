"""Agents ask the API for work (issue 23: agents never reach the database): the queue's oldest
run for the asking agent, one benchmark per host across systems, taken runs reaped when their
agent goes silent, and the manifests' cron runs queued by the API once per tick."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash.runs import lifecycle, schedule
from tests.fixtures.factories import auth, token
from tests.fixtures.manifests import MANIFEST

OTHER = {**MANIFEST, "system": "relay", "name": "relay", "schedule": None}


def _agent(client: TestClient, session: Session, manifest: dict[str, object]) -> dict[str, str]:
    slug = str(manifest["system"])
    headers = auth(token(session, slug, scope="agent+upload"))
    r = client.put(f"/api/v1/systems/{slug}/manifest", json=manifest, headers=headers)
    assert r.status_code == 200, r.text
    return headers


def _queue(client: TestClient, session: Session, system: str) -> int:
    headers = auth(token(session, system, scope="trigger"))
    r = client.post("/api/v1/runs", json={"system": system, "ref": "main"}, headers=headers)
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def _claim(
    client: TestClient, headers: dict[str, str], system: str, name: str, host: str
) -> dict[str, object]:
    r = client.post(
        f"/api/v1/systems/{system}/agents/claim",
        json={"name": name, "host": host},
        headers=headers,
    )
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_an_agent_takes_the_oldest_run_once(client: TestClient, session: Session) -> None:
    agent = _agent(client, session, MANIFEST)
    assert _claim(client, agent, "cachex", "h1/1", "h1") == {
        "run_id": None,
        "reason": None,
        "source_url": None,
    }
    first, second = _queue(client, session, "cachex"), _queue(client, session, "cachex")
    assert _claim(client, agent, "cachex", "h1/1", "h1")["run_id"] == first
    run = client.get(f"/api/v1/runs/{first}", headers=agent).json()
    assert run["status"] == "queued" and run["agent"] == "h1/1"  # taken, not started
    assert _claim(client, agent, "cachex", "h2/1", "h2")["run_id"] == second  # another host
    assert _claim(client, agent, "cachex", "h3/1", "h3")["run_id"] is None  # none left
    live = client.post(
        "/api/v1/systems/cachex/agents/heartbeat", json={"name": "h9/1"}, headers=agent
    )
    assert live.json()["live_agents"] == 4  # each claim counted as a heartbeat


def test_one_benchmark_per_host_across_systems(client: TestClient, session: Session) -> None:
    cachex, relay = _agent(client, session, MANIFEST), _agent(client, session, OTHER)
    busy, waiting = _queue(client, session, "cachex"), _queue(client, session, "relay")
    assert _claim(client, cachex, "cachex", "box/1", "box")["run_id"] == busy
    got = _claim(client, relay, "relay", "box/2", "box")
    assert got == {
        "run_id": None,
        "reason": f"host box is busy with run {busy}",
        "source_url": None,
    }
    r = client.post(f"/api/v1/runs/{busy}/report", json={"status": "running"}, headers=cachex)
    assert r.status_code == 200, r.text
    assert _claim(client, relay, "relay", "box/2", "box")["run_id"] is None  # still busy
    assert _claim(client, relay, "relay", "elsewhere/1", "elsewhere")["run_id"] == waiting
    r = client.post(f"/api/v1/runs/{busy}/report", json={"status": "failed"}, headers=cachex)
    assert r.status_code == 200, r.text
    assert _claim(client, relay, "relay", "box/2", "box") == {
        "run_id": None,
        "reason": None,
        "source_url": None,
    }


def test_a_taken_run_whose_agent_goes_silent_is_failed_and_frees_its_host(
    client: TestClient, session: Session
) -> None:
    agent = _agent(client, session, MANIFEST)
    run_id = _queue(client, session, "cachex")
    assert _claim(client, agent, "cachex", "box/1", "box")["run_id"] == run_id
    old = datetime.now(UTC) - timedelta(seconds=120)
    session.execute(
        text("UPDATE run SET heartbeat_at = :t WHERE id = :id"), {"t": old, "id": run_id}
    )
    assert lifecycle.reap(session=session, timeout_s=60) == [run_id]
    later = _queue(client, session, "cachex")
    assert _claim(client, agent, "cachex", "box/2", "box")["run_id"] == later


def test_cancelling_a_taken_run_asks_its_agent(client: TestClient, session: Session) -> None:
    agent = _agent(client, session, MANIFEST)
    run_id = _queue(client, session, "cachex")
    assert _claim(client, agent, "cachex", "box/1", "box")["run_id"] == run_id
    admin = auth(token(session, scope="admin"))
    r = client.post(f"/api/v1/runs/{run_id}/cancel", headers=admin)
    assert r.status_code == 200 and r.json()["cancel_requested"] is True, r.text
    ack = client.post(f"/api/v1/runs/{run_id}/report", json={}, headers=agent).json()
    assert ack == {"status": "queued", "cancel_requested": True}


def test_claims_need_the_systems_agent_scope(client: TestClient, session: Session) -> None:
    _agent(client, session, MANIFEST)
    url, body = "/api/v1/systems/cachex/agents/claim", {"name": "h/1", "host": "h"}
    assert client.post(url, json=body).status_code == 401
    for other in ("relay", None):
        plain = token(session, other, scope="agent") if other else token(session, "cachex")
        r = client.post(url, json=body, headers=auth(plain))
        assert r.status_code == 403, r.text  # another system's agent; an upload-only token
    bad = client.post(
        url, json={"host": "h"}, headers=auth(token(session, "cachex", scope="agent"))
    )
    assert bad.status_code == 422


def test_the_cron_queues_one_run_per_tick(client: TestClient, session: Session) -> None:
    _agent(client, session, MANIFEST)  # "0 3 * * *", profile quick
    _agent(client, session, OTHER)  # no schedule
    tick = datetime(2026, 11, 26, 3, 0, tzinfo=UTC)
    first = schedule.queue_due(session=session, now=tick + timedelta(seconds=5), grace_s=600)
    assert len(first) == 1
    again = schedule.queue_due(session=session, now=tick + timedelta(seconds=60), grace_s=600)
    assert again == []  # another replica, or the next loop: the same tick
    late = schedule.queue_due(session=session, now=tick + timedelta(minutes=11), grace_s=600)
    assert late == []  # past the grace: skipped, not caught up
    run = client.get(f"/api/v1/runs/{first[0]}", headers=auth(token(session, scope="admin")))
    body = run.json()
    assert (body["trigger"], body["profile"], body["status"]) == ("schedule", "quick", "queued")
    assert body["branch"] == "main"
