"""One bisection per alert summary: a commit that slows thirty benchmarks of a runner-executed
system is confirmed by its re-runs as thirty alerts of one summary, and bisected once; asking
to bisect another of its alerts answers with that bisection."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session

from tests.fixtures.api import post
from tests.fixtures.factories import auth, document, metric, noisy, token
from tests.fixtures.manifests import MANIFEST

BENCHMARKS = 30
NAMES = [f"bench_{i:02d}" for i in range(BENCHMARKS)]
WIDE = {
    **MANIFEST,
    "profiles": {name: {**p, "scenarios": NAMES} for name, p in MANIFEST["profiles"].items()},
}


def sha(i: int) -> str:
    return f"{i:040x}"


def _upload(
    client: TestClient, h: dict[str, str], run_id: int | None, level: float, at: int, commit: str
) -> dict[str, Any]:
    doc = document(system="cachex", at=at)
    doc["results"] = [
        {
            "benchmark": NAMES[i],
            "parameters": {},
            "metrics": [
                metric("qps", "req/s", "higher_is_better", samples=noisy(level, 0.002, seed=at + i))
            ],
        }
        for i in range(BENCHMARKS)
    ]
    doc["run"]["commit"] = commit
    if run_id is not None:
        doc["run"]["id"] = run_id
        doc["run"].pop("external_id")
    return post(client, h, doc)


def test_thirty_alerts_of_one_summary_are_bisected_once(
    client: TestClient, session: Session
) -> None:
    h = auth(token(session, "cachex", scope="agent+upload+trigger"))
    assert client.put("/api/v1/systems/cachex/manifest", json=WIDE, headers=h).is_success
    for at in range(12):  # CI history at 1000 req/s
        _upload(client, h, None, 1000, at, sha(at))
    r = client.post("/api/v1/runs", json={"system": "cachex", "ref": sha(100)}, headers=h)
    assert r.status_code == 201, r.text
    suspect = int(r.json()["id"])
    _upload(client, h, suspect, 700, 20, sha(100))
    runs = client.get("/api/v1/runs", params={"system": "cachex", "limit": 100}).json()["items"]
    for i, rerun in enumerate(r for r in runs if r["rerun_of"] == suspect):
        _upload(client, h, rerun["id"], 700, 21 + i, sha(100))
    alerts = client.get("/api/v1/alerts").json()
    assert len(alerts) == BENCHMARKS and len({a["summary_id"] for a in alerts}) == 1
    bisections = session.execute(text("SELECT id, alert_id, summary_id FROM bisection")).all()
    assert len(bisections) == 1, "one bisection for the summary, not one per alert"
    (bid, bisected_alert, summary_id) = bisections[0]
    assert summary_id == alerts[0]["summary_id"]

    other = next(a["id"] for a in alerts if a["id"] != bisected_alert)
    listed = client.get(f"/api/v1/alerts/{other}/bisections").json()
    assert [b["id"] for b in listed] == [bid], "another alert of the summary shows its bisection"
    again = client.post(f"/api/v1/alerts/{other}/bisections", json={}, headers=h)
    assert again.status_code == 200 and again.json()["id"] == bid, again.text
    assert session.scalar(text("SELECT count(*) FROM bisection")) == 1
    own = client.post(f"/api/v1/alerts/{bisected_alert}/bisections", json={}, headers=h)
    assert own.status_code == 409  # its own is still running, as before summaries
