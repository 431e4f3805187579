"""Runs list, detail, compare, pinned baselines."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests.fixtures.api import post
from tests.fixtures.factories import auth, document, metric, token


def test_list_detail_and_compare(client: TestClient, session: Session) -> None:
    h = auth(token(session, "uvhttp"))
    a = post(client, h, document(metric(samples=[100, 100.2, 99.8]), at=0))["run"]["id"]
    b = post(client, h, document(metric(samples=[80, 80.1, 79.9]), at=1))["run"]["id"]
    page = client.get("/api/v1/runs", params={"system": "uvhttp", "limit": 1}).json()
    assert page["total"] == 2 and [r["id"] for r in page["items"]] == [b]
    detail = client.get(f"/api/v1/runs/{b}").json()
    assert detail["measurements"][0]["baseline_run_ids"] == [a]
    assert detail["environment"]["cpu"] == "test"
    cmp = client.get("/api/v1/compare", params={"base": a, "head": b}).json()
    row = cmp["rows"][0]
    assert (row["base"], row["head"]) == (100, 80) and round(row["change_pct"]) == 20
    assert row["level"] == "fail"
    assert client.get("/api/v1/runs/424242").status_code == 404
    assert client.get("/api/v1/runs", params={"status": "dancing"}).status_code == 422


def test_pinned_baseline_is_used(client: TestClient, session: Session) -> None:
    h = auth(token(session, "uvhttp"))
    pinned = post(client, h, document(metric(samples=[50, 50.1, 49.9]), at=0))["run"]["id"]
    for i in range(1, 13):  # enough history for the detector to measure the noise
        j = 1 + (i % 3 - 1) * 0.002  # about 0.2 % run to run
        post(client, h, document(metric(samples=[100 * j, 100.1 * j, 99.9 * j]), at=i))
    r = client.put(
        "/api/v1/systems/uvhttp/branches/main/baseline",
        json={"run_id": pinned},
        headers=auth(token(session, "uvhttp", scope="trigger")),
    )
    assert r.status_code == 200 and r.json()["pinned_run_id"] == pinned
    v = post(client, h, document(metric(samples=[100, 100.1, 99.9]), at=20))["verdicts"][0]
    assert v["baseline_source"] == "pinned" and v["baseline_run_ids"] == [pinned]
    assert v["level"] == "improved"
    bad = client.put(
        "/api/v1/systems/uvhttp/branches/main/baseline",
        json={"run_id": 10**6},
        headers=auth(token(session, "uvhttp", scope="trigger")),
    )
    assert bad.status_code == 404
    for not_a_run in (True, "3", 2.5):  # the fuzzer's `true` was taken as run 1 (5.0 is fine)
        r = client.put(
            "/api/v1/systems/uvhttp/branches/main/baseline",
            json={"run_id": not_a_run},
            headers=auth(token(session, "uvhttp", scope="trigger")),
        )
        assert r.status_code == 422, (not_a_run, r.text)
    r = client.put(
        "/api/v1/systems/uvhttp/branches/main/baseline",
        json={"run_id": float(pinned)},  # JSON Schema's integer: 5.0 is one
        headers=auth(token(session, "uvhttp", scope="trigger")),
    )
    assert r.status_code == 200 and r.json()["pinned_run_id"] == pinned


def test_new_branch_starts_from_main(client: TestClient, session: Session) -> None:
    h = auth(token(session, "uvhttp"))
    for i in range(12):
        post(client, h, document(metric(samples=[100, 100.1, 99.9]), at=i))
    v = post(client, h, document(metric(samples=[85, 85.1, 84.9]), branch="feature/x", at=20))
    assert v["verdicts"][0]["level"] == "fail"  # judged against main's history
    assert len(v["verdicts"][0]["baseline_run_ids"]) == 12


def test_testbeds_are_never_compared(client: TestClient, session: Session) -> None:
    h = auth(token(session, "uvhttp"))
    post(client, h, document(metric(samples=[100, 100.1, 99.9]), at=0, testbed="fast"))
    v = post(client, h, document(metric(samples=[50, 50.1, 49.9]), at=1, testbed="slow"))
    assert v["verdicts"][0]["level"] == "no_baseline"


def test_series_url_tells_parameter_sets_apart(client: TestClient, session: Session) -> None:
    h = auth(token(session, "uvhttp"))
    a = post(client, h, document(metric(value=1.0), parameters={"n": 10}, at=0))
    b = post(client, h, document(metric(value=1.0), parameters={"n": 100}, at=1))
    url_a, url_b = a["verdicts"][0]["series_url"], b["verdicts"][0]["series_url"]
    assert url_a != url_b and "params=%7B%22n%22%3A10%7D" in url_a
    series = client.get(
        "/api/v1/series",
        params={
            "system": "uvhttp",
            "benchmark": "medium_concurrency",
            "metric": "requests_per_second",
            "params": '{"n":100}',
        },
    )
    assert series.status_code == 200 and series.json()["parameters"] == {"n": 100}


def test_system_detail_lists_the_metrics_each_benchmark_has(
    client: TestClient, session: Session
) -> None:
    h = auth(token(session, "uvhttp"))
    post(
        client,
        h,
        document(
            metric(value=1.0),
            metric("latency_ms", "ms", "lower_is_better", value=2.0),
            benchmark="a",
            at=0,
        ),
    )
    post(client, h, document(metric(value=1.0), benchmark="b", at=1))
    detail = client.get("/api/v1/systems/uvhttp").json()
    by = {b["name"]: b["metrics"] for b in detail["benchmarks"]}
    assert by == {"a": ["latency_ms", "requests_per_second"], "b": ["requests_per_second"]}
