"""POST /api/v1/results: the DESIGN.md example, idempotency, auth and bad input."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests.fixtures.factories import auth, document, metric, row_counts, token

DESIGN_EXAMPLE: dict[str, Any] = {
    "schema": "benchdash/v1",
    "system": "uvhttp",
    "run": {
        "external_id": "ci-123-1",
        "commit": "9f1c2e7",
        "branch": "main",
        "version": "v1.2.0",
        "trigger": "ci",
        "profile": "quick",
        "started_at": "2026-01-09T22:30:00Z",
        "finished_at": "2026-01-09T22:41:00Z",
        "testbed": "ci-linux-2c",
    },
    "environment": {
        "os": "Linux 6.1",
        "cpu": "AMD Ryzen 7 5800H",
        "cores": 16,
        "memory_mb": 12288,
        "compiler": "GCC",
        "compiler_version": "12.2.0",
    },
    "configuration": {"build_with_mimalloc": True, "optimization": "-O2"},
    "results": [
        {
            "benchmark": "medium_concurrency",
            "parameters": {"threads": 4, "connections": 50, "duration_s": 10},
            "metrics": [
                {
                    "name": "requests_per_second",
                    "unit": "req/s",
                    "direction": "higher_is_better",
                    "value": 16544.0,
                    "samples": [16490.1, 16512.7, 16544.0, 16580.3, 16601.9],
                },
                {
                    "name": "latency_p99_ms",
                    "unit": "ms",
                    "direction": "lower_is_better",
                    "value": 8.2,
                    "samples": [8.1, 8.3, 8.2, 8.0, 8.4],
                },
            ],
        }
    ],
}


def test_design_example_is_stored_once(client: TestClient, session: Session) -> None:
    headers = auth(token(session, "uvhttp"))
    first = client.post("/api/v1/results", json=DESIGN_EXAMPLE, headers=headers)
    assert first.status_code == 201, first.text
    body = first.json()
    assert body["created"] is True
    assert {v["metric"] for v in body["verdicts"]} == {"requests_per_second", "latency_p99_ms"}
    assert all(v["level"] == "no_baseline" for v in body["verdicts"])
    rps = next(v for v in body["verdicts"] if v["metric"] == "requests_per_second")
    assert rps["n"] == 5 and rps["median"] == pytest.approx(16544.0)
    assert rps["min"] == pytest.approx(16490.1) and rps["max"] == pytest.approx(16601.9)

    again = client.post("/api/v1/results", json=DESIGN_EXAMPLE, headers=headers)
    assert again.status_code == 200
    assert again.json()["created"] is False
    assert again.json()["run"]["id"] == body["run"]["id"]
    assert row_counts(session)["run"] == 1
    assert row_counts(session)["measurement"] == 2


def _post(client: TestClient, headers: dict[str, str], doc: dict[str, Any]) -> dict[str, Any]:
    r = client.post("/api/v1/results", json=doc, headers=headers)
    assert r.status_code == 201, r.text
    return dict(r.json())


def _levels(body: dict[str, Any]) -> dict[str, str]:
    return {v["metric"]: v["level"] for v in body["verdicts"]}


PRIOR = 12  # more than the detector's minimum history (10 runs) to measure the noise
JITTER = (0.0, 0.002, -0.002, 0.001, -0.001, 0.0)  # run-to-run: about 0.2 %, well under 5 %


@pytest.fixture
def history(client: TestClient, session: Session) -> dict[str, str]:
    """12 prior runs at 100 req/s (±0.5 % in 5 samples, ±0.2 % run to run) and latency 10 ms
    with a 10/20 override."""
    headers = auth(token(session, "uvhttp"))
    spread = (-0.005, -0.002, 0, 0.002, 0.005)
    for i in range(PRIOR):
        j = 1 + JITTER[i % len(JITTER)]
        _post(
            client,
            headers,
            document(
                metric(samples=[100 * j * (1 + d) for d in spread]),
                metric(
                    "latency_ms",
                    "ms",
                    "lower_is_better",
                    samples=[10 * j * (1 + d) for d in spread],
                ),
                at=i,
            ),
        )
    r = client.put(
        "/api/v1/systems/uvhttp/metrics/latency_ms",
        headers=auth(token(session, scope="admin")),
        json={"warn_threshold": 10, "fail_threshold": 20},
    )
    assert r.status_code == 200, r.text
    return headers


@pytest.mark.parametrize(
    ("factor", "expected"),
    [(0.88, "fail"), (0.93, "warn"), (0.97, "ok"), (1.12, "improved")],
)
def test_thresholds_against_the_current_level(
    client: TestClient, history: dict[str, str], factor: float, expected: str
) -> None:
    spread = (-0.005, -0.002, 0, 0.002, 0.005)
    body = _post(
        client, history, document(metric(samples=[100 * factor * (1 + d) for d in spread]), at=20)
    )
    verdict = body["verdicts"][0]
    assert verdict["level"] == expected
    assert verdict["baseline"] == pytest.approx(100.0, rel=0.002)
    assert len(verdict["baseline_run_ids"]) == PRIOR
    assert verdict["change_pct"] == pytest.approx((1 - factor) * 100, abs=0.3)
    # The noise is far below the configured thresholds, so they are the floors.
    assert (verdict["floor_warn"], verdict["floor_fail"]) == (5.0, 10.0)
    # A single upload is only suspected: no alert opens on it (CI-fed, confirmed by later runs).
    assert verdict["stage"] == ("suspected" if expected in ("warn", "fail") else None)


def test_latency_override_makes_15_percent_a_warn(
    client: TestClient, history: dict[str, str]
) -> None:
    spread = (-0.005, -0.002, 0, 0.002, 0.005)
    body = _post(
        client,
        history,
        document(
            metric("latency_ms", "ms", "lower_is_better", samples=[11.5 * (1 + d) for d in spread]),
            at=20,
        ),
    )
    v = body["verdicts"][0]
    assert (v["level"], v["warn_threshold"], v["fail_threshold"]) == ("warn", 10, 20)
    assert "10 %" in v["explanation"]


def test_overlapping_drop_is_noisy(client: TestClient, session: Session) -> None:
    headers = auth(token(session, "uvhttp"))
    for i in range(PRIOR):
        _post(client, headers, document(metric(samples=[91, 96, 100, 104, 109]), at=i))
    body = _post(client, headers, document(metric(samples=[80.0, 88.0, 96.0]), at=20))
    v = body["verdicts"][0]
    assert v["change_pct"] == pytest.approx(12.0)
    assert v["p_value"] >= 0.05
    assert v["level"] == "noisy"


def test_fail_explanation_names_runs_floor_and_stage(
    client: TestClient, history: dict[str, str]
) -> None:
    spread = (-0.005, -0.002, 0, 0.002, 0.005)
    body = _post(client, history, document(metric(samples=[87.7 * (1 + d) for d in spread]), at=20))
    text = body["verdicts"][0]["explanation"]
    assert "slower than the median of runs #" in text
    assert "10 %" in text and "suspected" in text.lower()


def test_too_little_history_judges_nothing_and_says_why(
    client: TestClient, session: Session
) -> None:
    headers = auth(token(session, "uvhttp"))
    for i in range(3):
        _post(client, headers, document(metric(value=100.0), at=i))
    v = _post(client, headers, document(metric(value=70.0), at=5))["verdicts"][0]
    assert v["gate"] == "history-too-short" and v["stage"] is None
    assert (
        v["level"] == "learning" and v["reason"] == "3 of the 10 runs needed to measure the noise"
    )
