"""A sustained shift hidden in 20 % noise opens an alert through the real ingest (issue 44):
suspected from the window of recent runs, named, graded and stored as any step is."""

from __future__ import annotations

from typing import Any

import numpy as np
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests.fixtures.api import post, verdict_copies_agree
from tests.fixtures.factories import auth, document, metric, token

SERIES = 4  # one metric each, in the same documents
STEP_AT = 60  # runs before the +50 % step
AFTER = 15  # runs uploaded from the step on: found within 15


def _values(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    values = 10.0 * np.exp(rng.normal(0.0, 0.2, STEP_AT + AFTER))  # 20 % noise per run
    values[STEP_AT:] *= 1.5  # sustained, 50 % slower
    return values


def _upload(client: TestClient, up: dict[str, str], series: list[np.ndarray], at: int) -> Any:
    metrics = [
        metric(f"latency_{k}", "ms", "lower_is_better", value=float(v[at]))
        for k, v in enumerate(series)
    ]
    return post(client, up, document(*metrics, benchmark="noisy_step", at=at))


def test_a_step_in_20pc_noise_opens_an_alert_naming_its_first_bad_run(
    client: TestClient, session: Session
) -> None:
    up = auth(token(session, "uvhttp"))
    series = [_values(44 + k) for k in range(SERIES)]
    run_ids = [_upload(client, up, series, at)["run"]["id"] for at in range(STEP_AT)]
    assert client.get("/api/v1/alerts").json() == [], "20 % noise alone opens nothing"
    window_verdicts = []
    for at in range(STEP_AT, STEP_AT + AFTER):
        body = _upload(client, up, series, at)
        run_ids.append(body["run"]["id"])
        window_verdicts += [v for v in body["verdicts"] if "runs in a row" in v["explanation"]]
    alerts = client.get("/api/v1/alerts", params={"status": ["open", "resolved"]}).json()
    named = {a["metric"]: a for a in alerts}
    assert len(named) >= SERIES - 1, f"found {len(named)} of {SERIES} steps within {AFTER} runs"
    for a in named.values():
        first = run_ids.index(a["run_id"])
        assert STEP_AT - 2 <= first <= STEP_AT + 5, (a["metric"], first)
        assert a["confirmed_by"] in ("window", "change-point", "persistence")
        assert a["kind"] == "step"
        assert a["level"] == "fail" and a["change_pct"] > 20  # graded by its size, 50 %
        assert a["last_good_run_id"] == run_ids[first - 1]
    by_window = [a for a in named.values() if a["confirmed_by"] == "window"]
    assert by_window, "no step was found by the window of recent runs"
    assert "the runs since shifted together" in by_window[0]["explanation"]
    assert window_verdicts and all(v["stage"] == "suspected" for v in window_verdicts)
    text = window_verdicts[0]["explanation"]
    assert "Suspected from " in text and "% slower (noise " in text and "% per run)" in text
    run = client.get(f"/api/v1/runs/{by_window[0]['run_id']}").json()
    assert "confirmed" in [m["stage"] for m in run["measurements"]]
    verdict_copies_agree(session)
