"""`wait_s` of a claim (long poll): 0 to 30 seconds, anything else a 422 naming it; work that is
there already is handed out at once, whatever the wait. (The wait itself, on a real API and
its NOTIFY: tests/integration/test_claim_wait.py.)"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests.fixtures.factories import auth, token
from tests.fixtures.manifests import MANIFEST

URL = "/api/v1/systems/cachex/agents/claim"


def _agent(client: TestClient, session: Session) -> dict[str, str]:
    headers = auth(token(session, "cachex", scope="agent+upload"))
    r = client.put("/api/v1/systems/cachex/manifest", json=MANIFEST, headers=headers)
    assert r.status_code == 200, r.text
    return headers


@pytest.mark.parametrize("bad", [-1, 30.5, 3600, "soon", None])
def test_a_bad_wait_is_422_naming_it(client: TestClient, session: Session, bad: object) -> None:
    agent = _agent(client, session)
    r = client.post(URL, json={"name": "h/1", "host": "h", "wait_s": bad}, headers=agent)
    assert r.status_code == 422, r.text
    assert "wait_s" in r.json()["detail"]


def test_queued_work_is_handed_out_at_once_whatever_the_wait(
    client: TestClient, session: Session
) -> None:
    agent = _agent(client, session)
    trigger = auth(token(session, "cachex", scope="trigger"))
    queued = client.post("/api/v1/runs", json={"system": "cachex", "ref": "main"}, headers=trigger)
    assert queued.status_code == 201, queued.text
    r = client.post(URL, json={"name": "h/1", "host": "h", "wait_s": 30}, headers=agent)
    assert r.status_code == 200, r.text
    assert r.json() == {"run_id": queued.json()["id"], "reason": None, "source_url": None}
