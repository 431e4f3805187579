"""Units with bounds: a `%` is 0–100 unless declared otherwise, a manifest may declare `min` and
`max`, and an upload outside them is refused with 422 naming the result and metric, nothing
stored."""

from __future__ import annotations

import copy

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests.fixtures.api import post
from tests.fixtures.factories import auth, document, metric, row_counts, token
from tests.fixtures.manifests import MANIFEST


def _pct(value: float) -> dict[str, object]:
    return metric("hit_rate_pct", "%", "higher_is_better", value=value)


def test_a_percentage_over_100_is_refused_and_nothing_stored(
    client: TestClient, session: Session
) -> None:
    headers = auth(token(session, "uvhttp"))
    post(client, headers, document(_pct(99.5), at=0))
    before = row_counts(session)
    doc = document(metric(samples=[10.0] * 3), _pct(101.1), at=1)
    r = client.post("/api/v1/results", json=doc, headers=headers)
    assert r.status_code == 422, r.text
    body = r.json()
    assert "results[0].metrics[1] (medium_concurrency hit_rate_pct)" in body["detail"]
    assert "between 0 and 100" in body["detail"]
    assert body["errors"][0]["loc"] == ["results", 0, "metrics", 1, "value"]
    assert row_counts(session) == before


def test_a_negative_percentage_sample_is_refused(client: TestClient, session: Session) -> None:
    headers = auth(token(session, "uvhttp"))
    doc = document(metric("hit_rate_pct", "%", "higher_is_better", samples=[50.0, -0.5]))
    r = client.post("/api/v1/results", json=doc, headers=headers)
    assert r.status_code == 422, r.text
    assert r.json()["errors"][0]["loc"][-1] == "samples"
    assert row_counts(session)["run"] == 0


def test_manifest_bounds_are_enforced_and_can_lift_the_percent_range(
    client: TestClient, session: Session
) -> None:
    manifest = copy.deepcopy(MANIFEST)
    manifest["metrics"] += [
        {"name": "cpu_percent", "unit": "%", "direction": "lower_is_better", "max": 800},
        {"name": "qps_floor", "unit": "req/s", "direction": "higher_is_better", "min": 1},
    ]
    agent = auth(token(session, "cachex", scope="agent"))
    r = client.put("/api/v1/systems/cachex/manifest", json=manifest, headers=agent)
    assert r.status_code == 200, r.text
    headers = auth(token(session, "cachex"))
    ok = document(
        metric("cpu_percent", "%", "lower_is_better", value=350.0),
        metric("qps_floor", "req/s", value=5.0),
        system="cachex",
    )
    post(client, headers, ok)
    before = row_counts(session)
    for bad, phrase in (
        (metric("cpu_percent", "%", "lower_is_better", value=801.0), "between 0 and 800"),
        (metric("qps_floor", "req/s", value=0.5), "at least 1"),
    ):
        doc = document(bad, system="cachex", at=5)
        r = client.post("/api/v1/results", json=doc, headers=headers)
        assert r.status_code == 422, r.text
        assert phrase in r.json()["detail"]
    assert row_counts(session) == before


def test_a_manifest_with_min_above_max_is_refused(client: TestClient, session: Session) -> None:
    manifest = copy.deepcopy(MANIFEST)
    manifest["metrics"][0] |= {"min": 10, "max": 1}
    agent = auth(token(session, "cachex", scope="agent"))
    r = client.put("/api/v1/systems/cachex/manifest", json=manifest, headers=agent)
    assert r.status_code == 422
    assert "min (10.0) above max (1.0)" in r.text
