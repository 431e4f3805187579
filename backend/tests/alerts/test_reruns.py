"""Runner-executed runs confirm a suspected change by re-running the same ref."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests.fixtures.api import post, verdict_copies_agree
from tests.fixtures.factories import auth, document, metric, token
from tests.fixtures.manifests import MANIFEST

JITTER = (1.0, 1.002, 0.998, 1.001, 0.999)


def _qps(value: float) -> dict[str, Any]:
    return metric("qps", "req/s", "higher_is_better", value=value)


def _setup(client: TestClient, session: Session) -> tuple[dict[str, str], dict[str, str]]:
    agent = auth(token(session, "cachex", scope="agent+upload+trigger"))
    assert client.put("/api/v1/systems/cachex/manifest", json=MANIFEST, headers=agent).is_success
    for at in range(15):  # CI history: 1000 req/s, about 0.2 % run to run
        post(client, agent, document(_qps(1000 * JITTER[at % 5]), system="cachex", at=at))
    return agent, agent


def _runner_upload(
    client: TestClient, headers: dict[str, str], run_id: int, value: float, at: int
) -> dict[str, Any]:
    doc = document(_qps(value), system="cachex", at=at)
    doc["run"]["id"] = run_id
    doc["run"].pop("external_id")
    return post(client, headers, doc)


def _queue(client: TestClient, headers: dict[str, str], sha: str) -> int:
    r = client.post("/api/v1/runs", json={"system": "cachex", "ref": sha}, headers=headers)
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def _reruns_of(client: TestClient, run_id: int) -> list[dict[str, Any]]:
    runs = client.get("/api/v1/runs", params={"system": "cachex", "limit": 100}).json()["items"]
    return [r for r in runs if r["rerun_of"] == run_id]


def test_a_suspected_step_confirmed_by_its_reruns_opens_one_alert(
    client: TestClient, session: Session
) -> None:
    agent, _ = _setup(client, session)
    suspect = _queue(client, agent, "abcdef1234")
    body = _runner_upload(client, agent, suspect, 850.0, 20)  # 15 % fewer req/s
    assert body["verdicts"][0]["stage"] == "suspected"
    reruns = _reruns_of(client, suspect)
    assert len(reruns) == 2 and {r["status"] for r in reruns} == {"queued"}
    assert {r["trigger"] for r in reruns} == {"rerun"}
    assert client.get("/api/v1/alerts").json() == []
    _runner_upload(client, agent, reruns[0]["id"], 852.0, 21)
    assert client.get("/api/v1/alerts").json() == [], "re-run 1 of 2: not decided yet"
    _runner_upload(client, agent, reruns[1]["id"], 848.0, 22)
    alerts = client.get("/api/v1/alerts").json()
    assert len(alerts) == 1
    assert alerts[0]["run_id"] == suspect and alerts[0]["confirmed_by"] == "re-runs"
    assert alerts[0]["commit"] == body["run"]["commit"]  # the suspect names the step
    detail = client.get(f"/api/v1/runs/{suspect}").json()
    assert detail["measurements"][0]["stage"] == "confirmed"
    assert [r["id"] for r in detail["reruns"]] == sorted(r["id"] for r in reruns)
    verdict_copies_agree(session)


def test_a_spike_its_reruns_do_not_repeat_is_dismissed(
    client: TestClient, session: Session
) -> None:
    agent, _ = _setup(client, session)
    suspect = _queue(client, agent, "1234abcdef")
    _runner_upload(client, agent, suspect, 850.0, 20)
    for i, rerun in enumerate(_reruns_of(client, suspect)):
        _runner_upload(client, agent, rerun["id"], 1000.0, 21 + i)
    assert client.get("/api/v1/alerts", params={"status": ["open", "resolved"]}).json() == []
    detail = client.get(f"/api/v1/runs/{suspect}").json()
    assert detail["measurements"][0]["stage"] == "dismissed"
    series = client.get(
        "/api/v1/series",
        params={"system": "cachex", "benchmark": "medium_concurrency", "metric": "qps"},
    ).json()
    assert series["total"] == 16, "re-runs confirm; they are not points of the series"
    verdict_copies_agree(session)
