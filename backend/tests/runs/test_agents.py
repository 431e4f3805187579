"""Agents' heartbeats: the API knows each system's live agents, warns when a run is queued for
a system with none, and fails such a run after the configured wait (issue 23, item 6)."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash.runs import lifecycle
from tests.fixtures.factories import auth, token
from tests.fixtures.manifests import MANIFEST


def _register(client: TestClient, session: Session) -> tuple[dict[str, str], dict[str, str]]:
    agent = auth(token(session, "cachex", scope="agent+upload"))
    r = client.put("/api/v1/systems/cachex/manifest", json=MANIFEST, headers=agent)
    assert r.status_code == 200, r.text
    return agent, auth(token(session, "cachex", scope="trigger"))


def _beat(client: TestClient, headers: dict[str, str], name: str = "host/1") -> int:
    r = client.post(
        "/api/v1/systems/cachex/agents/heartbeat",
        json={"name": name, "host": "host"},
        headers=headers,
    )
    assert r.status_code == 200, r.text
    return int(r.json()["live_agents"])


def _queue(client: TestClient, headers: dict[str, str]) -> dict[str, object]:
    r = client.post("/api/v1/runs", json={"system": "cachex", "ref": "main"}, headers=headers)
    assert r.status_code == 201, r.text
    return dict(r.json())


def test_a_run_for_a_system_without_agents_is_queued_with_a_warning(
    client: TestClient, session: Session
) -> None:
    agent, trigger = _register(client, session)
    run = _queue(client, trigger)
    assert run["status"] == "queued"
    assert "no runner agent of cachex is online" in str(run["warning"])
    assert "fails after 600 s" in str(run["warning"])
    assert _beat(client, agent) == 1 and _beat(client, agent, "host/2") == 2
    assert _beat(client, agent) == 2  # the same agent again
    assert _queue(client, trigger)["warning"] is None


def test_heartbeats_need_the_systems_agent_scope(client: TestClient, session: Session) -> None:
    _register(client, session)
    url, body = "/api/v1/systems/cachex/agents/heartbeat", {"name": "h/1"}
    assert client.post(url, json=body).status_code == 401
    for other in (token(session, "relay", scope="agent"), token(session, "cachex")):
        assert client.post(url, json=body, headers=auth(other)).status_code == 403
    r = client.post(
        "/api/v1/systems/nope/agents/heartbeat",
        json=body,
        headers=auth(token(session, scope="agent")),
    )
    assert r.status_code == 404


def test_a_run_no_agent_takes_fails_after_the_wait(client: TestClient, session: Session) -> None:
    agent, trigger = _register(client, session)
    waiting = _queue(client, trigger)
    _age(session, int(str(waiting["id"])), seconds=700)
    _beat(client, agent)
    assert lifecycle.reap_unserved(session=session, wait_s=600, live_s=30) == []  # one is online
    session.execute(text("UPDATE runner_agent SET last_seen_at = now() - interval '31 s'"))
    young = _queue(client, trigger)
    assert lifecycle.reap_unserved(session=session, wait_s=600, live_s=30) == [waiting["id"]]
    row = session.execute(
        text(
            "SELECT r.status, r.message, j.status AS job FROM run r "
            "JOIN procrastinate_jobs j ON j.id = r.job_id WHERE r.id = :id"
        ),
        {"id": waiting["id"]},
    ).one()
    assert row.status == "failed" and "no runner agent" in row.message
    assert row.job == "cancelled"  # an agent that starts later does not take it
    detail = client.get(f"/api/v1/runs/{young['id']}").json()
    assert detail["status"] == "queued"  # it has not waited long enough


def _age(session: Session, run_id: int, *, seconds: int) -> None:
    session.execute(
        text("UPDATE run SET created_at = now() - make_interval(secs => :s) WHERE id = :id"),
        {"s": seconds, "id": run_id},
    )
