"""A CI user's stream: one document a run, metrics of every noise level, integer counts and
zeros side by side. Every upload is stored; a step names its first bad commit, nothing else
alerts. (Issue 22: a document mixing a quiet and a noisy metric answered 500 from run 11.)"""

from __future__ import annotations

import random

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests.fixtures.factories import auth, row_counts, token
from tests.fixtures.streams import Bench, Kind, ci_job, commit_of, stream_document


def _send(
    client: TestClient, session: Session, benches: tuple[Bench, ...], runs: int, seed: int
) -> list[int]:
    headers = auth(token(session, "uvhttp"))
    rng = random.Random(seed)
    codes = []
    for i in range(runs):
        doc = stream_document(benches, i, rng, system="uvhttp", stream=f"seed{seed}")
        codes.append(client.post("/api/v1/results", json=doc, headers=headers).status_code)
    return codes


def test_a_quiet_and_a_noisy_metric_are_stored_from_run_11_on(
    client: TestClient, session: Session
) -> None:
    job = (
        Bench(
            name="handler",
            kinds=(Kind(name="quiet", noise=0.001), Kind(name="noisy", noise=0.05)),
        ),
    )
    codes = _send(client, session, job, 16, seed=22)
    assert codes == [201] * 16
    counts = row_counts(session)
    assert counts["run"] == 16 and counts["measurement"] == 32 and counts["verdict"] == 32


def test_a_twenty_metric_stream_alerts_on_its_three_stepped_metrics_only(
    client: TestClient, session: Session
) -> None:
    job = ci_job(step_at=30)  # run 31 of 40 (index 30) is the first slower one
    stepped = {k.name for b in job for k in b.kinds if k.step_at is not None}
    assert sum(len(b.kinds) for b in job) == 20 and len(stepped) == 3
    codes = _send(client, session, job, 40, seed=31)
    assert codes == [201] * 40
    assert row_counts(session)["measurement"] == 800
    alerts = client.get("/api/v1/alerts", params={"status": ["open", "resolved"]}).json()
    assert sorted(a["metric"] for a in alerts) == sorted(stepped), alerts
    assert {a["commit"] for a in alerts} == {commit_of(30, stream="seed31")}
