"""Streams of 40–60 realistic documents through the real API on the real PostgreSQL.

Every upload is stored (201), nothing is lost (row counts) and every stepped metric gets its
alert naming the step's first bad commit — in CI-fed mode (change points) and in
runner-executed mode (queued runs, two re-runs confirm). Each example is a system of its own
inside the test's rolled-back transaction. `HYPOTHESIS_PROFILE=long` (make test-flaky) draws
more examples.
"""

from __future__ import annotations

import itertools
import os
import random
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text
from sqlalchemy.orm import Session

from tests.fixtures.factories import auth, token
from tests.fixtures.stream_strategies import jobs
from tests.fixtures.streams import Bench, commit_of, manifest_for, stream_document

settings.register_profile(
    "stream",
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
settings.register_profile(
    "long",
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
PROFILE = settings.get_profile(
    "long" if os.environ.get("HYPOTHESIS_PROFILE") == "long" else "stream"
)


@st.composite
def streams(draw: st.DrawFn) -> tuple[tuple[Bench, ...], int, int]:
    """(job, runs, noise seed)."""
    runs = draw(st.integers(40, 60))
    return draw(jobs(runs)), runs, draw(st.integers(0, 2**31))


_SYSTEMS = itertools.count()
_ROWS = text(
    "SELECT count(DISTINCT r.id), count(m.id) FROM run r JOIN system s ON s.id = r.system_id"
    " LEFT JOIN measurement m ON m.run_id = r.id WHERE s.slug = :system"
)


def _rows(session: Session, system: str) -> tuple[int, int]:
    """(runs, measurements) stored for `system`."""
    runs, measurements = session.execute(_ROWS, {"system": system}).one()
    return int(runs), int(measurements)


def _analyze(session: Session) -> None:
    """Planner statistics for the rows this test transaction wrote (autovacuum cannot see them
    before they commit): without them, 60 examples' rows were planned as empty tables and one
    alert listing ran for over an hour as nested loops of full scans."""
    session.execute(text("ANALYZE"))


def _alerts(client: TestClient, system: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    wanted = {"status": ["open", "resolved"], "system": system}
    for a in client.get("/api/v1/alerts", params=wanted).json():
        out.setdefault(a["metric"], set()).add(a["commit"])
    return out


def _stepped(job: tuple[Bench, ...]) -> dict[str, int]:
    return {k.name: k.step_at for b in job for k in b.kinds if k.step_at is not None}


@PROFILE
@given(streams())
def test_a_ci_stream_is_stored_whole_and_steps_name_their_commit(
    client: TestClient, session: Session, stream: Any
) -> None:
    job, runs, seed = stream
    system = f"ci-stream-{next(_SYSTEMS)}"
    _analyze(session)
    headers = auth(token(session, system))
    rng = random.Random(seed)
    for i in range(runs):
        doc = stream_document(job, i, rng, system=system, stream=system)
        r = client.post("/api/v1/results", json=doc, headers=headers)
        assert r.status_code == 201, (i, r.status_code, r.text[:500])
    assert _rows(session, system) == (runs, runs * sum(len(b.kinds) for b in job))
    alerts = _alerts(client, system)
    for name, step_at in _stepped(job).items():
        assert commit_of(step_at, stream=system) in alerts.get(name, set()), (name, alerts)


def _complete(
    client: TestClient, headers: dict[str, str], doc: dict[str, Any], run_id: int
) -> None:
    doc["run"]["id"] = run_id
    doc["run"]["external_id"] = f"queued-run-{run_id}"
    r = client.post("/api/v1/results", json=doc, headers=headers)
    assert r.status_code == 201, (run_id, r.status_code, r.text[:500])


def _queued(client: TestClient, system: str) -> list[int]:
    items = client.get("/api/v1/runs", params={"system": system, "limit": 100}).json()["items"]
    return sorted(r["id"] for r in items if r["status"] == "queued")


@PROFILE
@given(streams())
def test_a_runner_executed_stream_confirms_steps_by_reruns(
    client: TestClient, session: Session, stream: Any
) -> None:
    job, runs, seed = stream
    system = f"runner-stream-{next(_SYSTEMS)}"
    _analyze(session)
    headers = auth(token(session, system, scope="agent+upload+trigger"))
    manifest = manifest_for(system, job)
    r = client.put(f"/api/v1/systems/{system}/manifest", json=manifest, headers=headers)
    assert r.is_success, r.text
    rng = random.Random(seed)
    for i in range(runs):
        sha = commit_of(i, stream=system)
        q = client.post("/api/v1/runs", json={"system": system, "ref": sha}, headers=headers)
        assert q.status_code == 201, q.text
        doc = stream_document(job, i, rng, system=system, stream=system, profile="quick")
        _complete(client, headers, doc, q.json()["id"])
        for rerun in _queued(client, system):  # re-runs measure the same commit again
            doc = stream_document(job, i, rng, system=system, stream=system, profile="quick")
            _complete(client, headers, doc, rerun)
    assert _queued(client, system) == []
    stored, measurements = _rows(session, system)
    assert stored >= runs and measurements == stored * sum(len(b.kinds) for b in job)
    alerts = _alerts(client, system)
    for name, step_at in _stepped(job).items():
        assert commit_of(step_at, stream=system) in alerts.get(name, set()), (name, alerts)
