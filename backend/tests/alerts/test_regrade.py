"""An open step alert is graded again as runs arrive after its step: a regression that deepens
under an open warning becomes a failure (and says so to its subscribers); the grade goes back
only once the step is surely under the fail threshold."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash.regression import alerting
from benchdash.regression.engine import Level, Thresholds
from benchdash.regression.model import Action, AlertKind, OpenAlert, Point, Stage
from tests.fixtures.api import post
from tests.fixtures.factories import auth, document, metric, token

JITTER = (1.0, 1.002, 0.998, 1.001, 0.999)  # about 0.2 % run to run
T = Thresholds(5, 10)


def _run(client: TestClient, headers: dict[str, str], value: float, at: int) -> dict[str, Any]:
    return post(client, headers, document(metric(value=value * JITTER[at % 5]), at=at))


def _alerts(client: TestClient) -> list[dict[str, Any]]:
    alerts: list[dict[str, Any]] = client.get("/api/v1/alerts").json()
    return alerts


def test_a_regression_that_deepens_under_a_warning_fails_and_says_so(
    client: TestClient, session: Session
) -> None:
    up = auth(token(session, "uvhttp"))
    admin = auth(token(session, "uvhttp", scope="admin"))
    hook = {
        "system": "uvhttp",
        "name": "ops",
        "channel": "webhook",
        "target": "http://127.0.0.1:9/h",
    }
    _run(client, up, 1000, 0)  # the system exists once it has a run
    subscribed = client.post("/api/v1/notifications/subscriptions", json=hook, headers=admin)
    assert subscribed.status_code == 201, subscribed.text
    assert "alert.regraded" in subscribed.json()["events"]  # every event unless told otherwise
    for at in range(1, 25):
        _run(client, up, 1000, at)
    first = _run(client, up, 920, 25)  # −8 % req/s: a warning once confirmed
    for at in range(26, 30):
        _run(client, up, 920, at)
    (alert,) = _alerts(client)
    assert (alert["level"], alert["run_id"]) == ("warn", first["run"]["id"])
    assert alert["graded_runs"] is None and alert["regraded_at"] is None
    for at in range(30, 45):  # a later commit makes it worse by 4 % more: under any floor alone
        _run(client, up, 885, at)
    (alert,) = _alerts(client)
    assert alert["run_id"] == first["run"]["id"], "still the one step, graded again"
    assert alert["level"] == "fail" and alert["change_pct"] > 10
    # Stored when the level or size last moved (by a point or more), not on every run.
    graded = alert["graded_runs"]
    assert 5 < graded <= 20 and alert["regraded_at"] is not None
    assert f"Graded fail again once {graded} runs followed the step." in alert["explanation"]
    sent = session.execute(
        text("SELECT payload FROM notify_delivery WHERE event = 'alert.regraded'")
    ).scalars()
    (payload,) = list(sent)  # the level moved once: one notification, however many runs
    assert payload["alert"]["previous_level"] == "warn" and payload["alert"]["level"] == "fail"
    assert payload["title"].startswith("Now failing in uvhttp (main): medium_concurrency")
    assert f"since run #{first['run']['id']}" in payload["text"]


def _window(before: list[float], after: list[float]) -> list[Point]:
    pts = [Point(i, v) for i, v in enumerate(before + after)]
    i = len(before)
    pts[i] = Point(i, after[0], stage=Stage.CONFIRMED)
    return pts


def _open(level: Level, change: float, first: int = 20) -> OpenAlert:
    return OpenAlert(first, 100.0, 5.0, AlertKind.STEP, level, change)


BEFORE = [100.0 + (i % 3 - 1) * 0.3 for i in range(20)]


def test_a_warning_whose_step_is_surely_past_fail_is_graded_fail() -> None:
    window = _window(BEFORE, [112.0 + (i % 2) * 0.2 for i in range(8)])
    d = alerting.regrade(window, _open(Level.WARN, 8.0), "lower_is_better", T)
    assert d is not None and d.action is Action.KEEP and d.level is Level.FAIL
    assert d.change_pct is not None and 11.5 < d.change_pct < 12.5
    assert d.graded_runs == 8 and d.first_bad_run_id == 20


def test_a_failure_goes_back_to_warn_only_when_surely_under_fail() -> None:
    tight = _window(BEFORE, [107.0 + (i % 2) * 0.1 for i in range(10)])
    d = alerting.regrade(tight, _open(Level.FAIL, 11.0), "lower_is_better", T)
    assert d is not None and d.level is Level.WARN
    # 9.5 % on average but spread from 6 to 13 %: the interval reaches past fail, it keeps failing.
    wide = _window(BEFORE, [106.0, 113.0, 107.0, 112.0, 109.5, 110.0])
    d = alerting.regrade(wide, _open(Level.FAIL, 11.0), "lower_is_better", T)
    assert d is not None and d.level is Level.FAIL and d.change_pct is not None
    assert d.change_pct < 10


def test_nothing_to_store_when_neither_level_nor_size_moved() -> None:
    window = _window(BEFORE, [108.0] * 6)
    assert alerting.regrade(window, _open(Level.WARN, 8.0), "lower_is_better", T) is None
    moved = alerting.regrade(window, _open(Level.WARN, 6.5), "lower_is_better", T)
    assert moved is not None and moved.level is Level.WARN  # the size moved by 1.5 points


def test_no_regrade_without_enough_runs_or_for_a_drift() -> None:
    short = _window(BEFORE, [112.0, 112.0])  # two runs after the step
    assert alerting.regrade(short, _open(Level.WARN, 8.0), "lower_is_better", T) is None
    window = _window(BEFORE, [112.0] * 6)
    drift = OpenAlert(20, 100.0, 5.0, AlertKind.DRIFT, Level.WARN, 8.0)
    assert alerting.regrade(window, drift, "lower_is_better", T) is None
    gone = _open(Level.WARN, 8.0, first=999)  # its step is older than the window
    assert alerting.regrade(window, gone, "lower_is_better", T) is None
    higher = _window([900.0 + v for v in BEFORE], [888.0] * 6)  # −11 % req/s
    d = alerting.regrade(higher, _open(Level.WARN, 8.0), "higher_is_better", T)
    assert d is not None and d.level is Level.FAIL
