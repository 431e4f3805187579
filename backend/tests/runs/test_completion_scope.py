"""Only an `agent` credential of the run's system completes a queued run (issue 23, item 2)."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session

from tests.fixtures.factories import auth, document, metric, token
from tests.fixtures.manifests import MANIFEST


def _queued_run(client: TestClient, session: Session) -> int:
    agent = auth(token(session, "cachex", scope="agent"))
    assert client.put("/api/v1/systems/cachex/manifest", json=MANIFEST, headers=agent).is_success
    trig = auth(token(session, "cachex", scope="trigger"))
    r = client.post("/api/v1/runs", json={"system": "cachex", "ref": "main"}, headers=trig)
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def _completion(run_id: int) -> dict[str, object]:
    doc = document(metric("qps", samples=[10.0, 10.1, 9.9]), system="cachex", benchmark="cloud")
    doc["run"]["id"] = run_id
    return doc


def test_an_upload_token_cannot_complete_a_queued_run(client: TestClient, session: Session) -> None:
    run_id = _queued_run(client, session)
    upload = auth(token(session, "cachex", scope="upload"))
    r = client.post("/api/v1/results", json=_completion(run_id), headers=upload)
    assert r.status_code == 403 and "'agent' scope" in r.json()["detail"]
    assert client.get(f"/api/v1/runs/{run_id}").json()["status"] == "queued"
    assert session.execute(text("SELECT count(*) FROM measurement")).scalar() == 0
    # The same token's own documents (no run id) still create runs of their own.
    own = _completion(run_id)
    del own["run"]["id"]  # type: ignore[attr-defined]
    assert client.post("/api/v1/results", json=own, headers=upload).status_code == 201


def test_an_agent_token_of_another_system_cannot_complete_it(
    client: TestClient, session: Session
) -> None:
    run_id = _queued_run(client, session)
    other = auth(token(session, "relay", scope="agent+upload"))
    r = client.post("/api/v1/results", json=_completion(run_id), headers=other)
    assert r.status_code == 403
    assert client.get(f"/api/v1/runs/{run_id}").json()["status"] == "queued"


def test_the_systems_agent_token_completes_it(client: TestClient, session: Session) -> None:
    run_id = _queued_run(client, session)
    agent = auth(token(session, "cachex", scope="agent"))
    r = client.post("/api/v1/results", json=_completion(run_id), headers=agent)
    assert r.status_code == 201, r.text
    assert r.json()["run"]["id"] == run_id and r.json()["run"]["status"] == "completed"


def test_a_run_may_ask_for_any_profile_its_manifest_declares(
    client: TestClient, session: Session
) -> None:
    agent = auth(token(session, "cachex", scope="agent"))
    manifest = {
        **MANIFEST,
        "profiles": {
            **MANIFEST["profiles"],
            "instructions": {"time_limit_s": 600, "scenarios": []},
        },
    }
    assert client.put("/api/v1/systems/cachex/manifest", json=manifest, headers=agent).is_success
    trig = auth(token(session, "cachex", scope="trigger"))
    body = {"system": "cachex", "ref": "main", "profile": "instructions"}
    r = client.post("/api/v1/runs", json=body, headers=trig)
    assert r.status_code == 201 and r.json()["profile"] == "instructions", r.text
    r = client.post("/api/v1/runs", json={**body, "profile": "huge"}, headers=trig)
    assert r.status_code == 422 and "no profile 'huge'" in r.json()["detail"]
    r = client.post("/api/v1/runs", json={**body, "profile": "bad name!"}, headers=trig)
    assert r.status_code == 422
