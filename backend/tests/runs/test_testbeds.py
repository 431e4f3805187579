"""Testbeds people name: a runner's run lands on the testbed of the runs before it (the host's
name, not an environment fingerprint) and is judged against them; a compiler change there is
said on the run and marked on the series."""

from __future__ import annotations

import socket
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests.fixtures.api import post
from tests.fixtures.factories import auth, document, metric, token
from tests.fixtures.manifests import MANIFEST

HOST = socket.gethostname()


def _doc(at: int, version: str, value: float) -> dict[str, Any]:
    doc = document(
        metric("qps", samples=[value, value * 1.001, value * 0.999]),
        system="cachex",
        benchmark="cloud",
        parameters={},
        at=at,
        testbed=HOST,
    )
    doc["environment"] = {"os": "Linux 6.1", "cpu": "EPYC", "cores": 2, "compiler": "rustc",
                          "compiler_version": version}  # fmt: skip
    return doc


def test_a_runner_run_lands_on_the_testbed_before_it_and_a_compiler_change_is_marked(
    client: TestClient, session: Session
) -> None:
    agent = auth(token(session, "cachex", scope="agent"))
    assert client.put("/api/v1/systems/cachex/manifest", json=MANIFEST, headers=agent).is_success
    upload = auth(token(session, "cachex"))
    earlier = [post(client, upload, _doc(i, "1.95", 1000.0))["run"]["id"] for i in range(10)]
    trig = auth(token(session, "cachex", scope="trigger"))
    queued = client.post("/api/v1/runs", json={"system": "cachex", "ref": "main"}, headers=trig)
    run_id = queued.json()["id"]
    # What the runner's driver writes: run.id from the agent, the host as testbed, a new rustc.
    completion = _doc(20, "1.96", 1002.0)
    completion["run"] |= {"id": run_id, "external_id": f"queued-run-{run_id}"}
    post(client, agent, completion)

    detail = client.get(f"/api/v1/runs/{run_id}").json()
    assert detail["testbed"] == HOST
    (verdict,) = detail["measurements"]
    assert verdict["level"] == "ok" and verdict["baseline_run_ids"]
    assert set(verdict["baseline_run_ids"]) <= set(earlier)
    change = detail["environment_change"]
    assert change["text"] == "rustc 1.95 → 1.96"
    assert change["previous_run_id"] == earlier[-1]
    assert change["diffs"] == [{"key": "compiler_version", "before": "1.95", "after": "1.96"}]
    assert client.get(f"/api/v1/runs/{earlier[-1]}").json()["environment_change"] is None

    series = client.get(
        "/api/v1/series",
        params={"system": "cachex", "benchmark": "cloud", "metric": "qps", "branch": "main"},
    ).json()
    assert series["testbeds"] == [HOST]
    assert [(m["run_id"], m["text"]) for m in series["environment_changes"]] == [
        (run_id, "rustc 1.95 → 1.96")
    ]
    # The system page's batch carries the view's changes once, for every chart of the page.
    batch = client.get("/api/v1/series/batch", params={"system": "cachex"}).json()
    assert batch["testbed"] == HOST
    assert batch["environment_changes"] == series["environment_changes"]
    assert run_id in batch["runs"]["id"]
    later = {"system": "cachex", "from": "2030-01-01T00:00:00Z"}
    assert client.get("/api/v1/series/batch", params=later).json()["environment_changes"] == []


def test_a_kernel_and_compiler_change_is_told_in_words(
    client: TestClient, session: Session
) -> None:
    upload = auth(token(session, "cachex"))
    post(client, upload, _doc(0, "1.95", 1000.0))
    doc = _doc(1, "1.96", 1000.0)
    doc["environment"] |= {"os": "Linux 6.5", "compiler": "gcc"}
    second = post(client, upload, doc)["run"]["id"]
    change = client.get(f"/api/v1/runs/{second}").json()["environment_change"]
    assert change["text"] == "rustc 1.95 → gcc 1.96; kernel Linux 6.1 → Linux 6.5"
    # A fingerprint testbed (no name given) keeps working: the same environment, one testbed.
    for at in (2, 3):
        fp = _doc(at, "1.97", 1000.0)
        del fp["run"]["testbed"]
        post(client, upload, fp)
    runs = client.get("/api/v1/runs", params={"system": "cachex"}).json()["items"]
    assert {r["testbed"] for r in runs[:2]} == {runs[0]["testbed"]}
    assert runs[0]["testbed"].startswith("env-")


def test_a_range_that_starts_at_the_change_still_marks_it(
    client: TestClient, session: Session
) -> None:
    """A range reads its runs and the one before it (its first run's previous environment),
    not the testbed's whole history; a range that ends before the change has no mark."""
    upload = auth(token(session, "cachex"))
    for i in range(6):
        post(client, upload, _doc(i, "1.95", 1000.0))
    changed = post(client, upload, _doc(6, "1.96", 1000.0))["run"]
    post(client, upload, _doc(7, "1.96", 1000.0))
    key = {"system": "cachex", "benchmark": "cloud", "metric": "qps"}
    at_change = client.get("/api/v1/series", params={**key, "from": changed["started_at"]}).json()
    assert [(m["run_id"], m["text"]) for m in at_change["environment_changes"]] == [
        (changed["id"], "rustc 1.95 → 1.96")
    ]
    assert len(at_change["points"]) == 2
    before = client.get("/api/v1/series", params={**key, "to": changed["started_at"]}).json()
    assert [m["run_id"] for m in before["environment_changes"]] == [changed["id"]]
    earlier = client.get(
        "/api/v1/series/batch", params={"system": "cachex", "to": "2000-01-01T00:00:00Z"}
    )
    assert earlier.json()["environment_changes"] == []
