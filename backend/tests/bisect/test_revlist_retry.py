"""A bisection's commit-listing task is retried once when its agent dies (as a step is): the
second task lists the commits and the bisection goes on; a second death fails it, saying so; an
agent's own answer that it cannot list them is not retried."""

from __future__ import annotations

from datetime import timedelta

from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash.bisect import advance
from benchdash.db import utcnow
from benchdash.runs import lifecycle
from tests.bisect.test_api import _alert_with_bisection, sha


def _agent_dies(client: TestClient, h: dict[str, str], session: Session, run_id: int) -> None:
    """The agent takes the task, starts it, then goes silent: the reaper fails the run."""
    r = client.post(f"/api/v1/runs/{run_id}/report", json={"status": "running"}, headers=h)
    assert r.status_code == 200, r.text
    old = utcnow() - timedelta(minutes=10)
    session.execute(
        text("UPDATE run SET heartbeat_at = :t WHERE id = :id"), {"t": old, "id": run_id}
    )
    assert lifecycle.reap(session=session, timeout_s=60) == [run_id]
    assert advance.advance_pending(session=session) == 1


def test_the_revlist_task_is_retried_once_when_its_agent_dies(
    client: TestClient, session: Session
) -> None:
    h, b = _alert_with_bisection(client, session)
    first = b["revlist_run_id"]
    _agent_dies(client, h, session, first)
    b = client.get(f"/api/v1/bisections/{b['id']}").json()
    assert b["state"] == "running" and b["revlist_run_id"] != first
    again = client.get(f"/api/v1/runs/{b['revlist_run_id']}").json()
    task = client.get(f"/api/v1/runs/{first}").json()["task"]
    assert again["status"] == "queued" and again["trigger"] == "bisect"
    assert again["task"] == task | {"attempt": 2}
    assert again["requested_benchmarks"] == ["cloud"]
    commits = [{"sha": sha(400 + i)} for i in range(3)] + [{"sha": sha(100)}]
    r = client.post(f"/api/v1/runs/{again['id']}/commits", json={"commits": commits}, headers=h)
    assert r.status_code == 200, r.text
    b = r.json()
    assert b["state"] == "running" and len(b["steps"]) == 1 and len(b["commits"]) == 4


def test_a_second_death_fails_the_bisection_and_an_agents_error_is_not_retried(
    client: TestClient, session: Session
) -> None:
    h, b = _alert_with_bisection(client, session)
    _agent_dies(client, h, session, b["revlist_run_id"])
    b = client.get(f"/api/v1/bisections/{b['id']}").json()
    _agent_dies(client, h, session, b["revlist_run_id"])
    b = client.get(f"/api/v1/bisections/{b['id']}").json()
    assert b["state"] == "failed"
    assert b["message"].startswith("the commits could not be listed (tried twice)")
    assert "heartbeats" in b["message"]

    restart = client.post(f"/api/v1/alerts/{b['alert_id']}/bisections", json={}, headers=h)
    assert restart.status_code == 201, restart.text
    task = restart.json()["revlist_run_id"]
    answer = {"error": "fatal: bad revision"}
    r = client.post(f"/api/v1/runs/{task}/commits", json=answer, headers=h)
    assert r.status_code == 200, r.text
    assert r.json()["state"] == "failed" and r.json()["revlist_run_id"] == task
    assert "fatal: bad revision" in r.json()["message"]
