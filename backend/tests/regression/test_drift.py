"""Drift alerts (drift.py, alerting.py): slow drifts alerted once, steps not counted twice."""

from __future__ import annotations

import numpy as np

from benchdash.regression import changepoint, detector, drift
from benchdash.regression.engine import HIGHER, LOWER, Level, Thresholds
from benchdash.regression.floors import VARIATION_RUNS
from benchdash.regression.model import Action, OpenAlert, Point
from benchdash.regression.replay import replay

from .series import noisy, points

T = Thresholds(5.0, 10.0)


def trend(n: int, *, per_run: float, start: int, sigma: float, seed: int) -> list[float]:
    """Flat until `start`, then `per_run` worse (lower is better) on every run."""
    rng = np.random.default_rng(seed)
    level = 1 + np.clip(np.arange(n) - start + 1, 0, None) * per_run
    return [float(x) for x in 100 * level * (1 + rng.normal(0, sigma, n))]


def test_history_needed_follows_from_the_windows() -> None:
    assert detector.STEP_HISTORY == changepoint.LEFT_RUNS + changepoint.MAX_AGE
    assert drift.HISTORY == drift.DRIFT_RUNS + drift.LEVEL_RUNS + drift.PERSIST - 2
    assert max(detector.STEP_HISTORY, VARIATION_RUNS, drift.HISTORY) == detector.HISTORY_NEEDED
    # The drift check needs exactly HISTORY earlier runs: one fewer and it cannot look back.
    values = [100.0] * (drift.LEVEL_RUNS + drift.PERSIST - 1) + [110.0] * (drift.DRIFT_RUNS - 1)
    assert drift.drift([*values, 110.0], direction=LOWER, thresholds=T) is not None
    assert drift.drift(values, direction=LOWER, thresholds=T) is None


def test_a_slow_drift_is_alerted_as_drift_before_it_reaches_15_percent() -> None:
    for seed in range(5):
        values = trend(220, per_run=0.001, start=40, sigma=0.01, seed=seed)
        opened = replay(points(values), direction=LOWER, thresholds=T)
        assert [a["kind"] for a in opened] == ["drift"], (seed, opened)
        assert (opened[0]["alarm_index"] - 40 + 1) * 0.001 < 0.15


def test_a_steep_trend_is_reported_once_not_every_ten_runs() -> None:
    values = trend(250, per_run=0.005, start=0, sigma=0.01, seed=3)
    opened = replay(points(values), direction=LOWER, thresholds=T)
    assert [a["kind"] for a in opened] == ["drift"], opened


def test_flat_and_stepped_series_raise_no_drift() -> None:
    flat = replay(points(noisy(200, seed=5, sigma=0.02)), direction=LOWER, thresholds=T)
    assert flat == []
    stepped = noisy(200, seed=6, sigma=0.01, step_at=80, step=0.12)
    kinds = [a["kind"] for a in replay(points(stepped), direction=LOWER, thresholds=T)]
    assert kinds == ["step"]  # the confirmed step restarts the window: not counted as drift


def test_the_drift_alert_names_its_window_and_contributors() -> None:
    values = [100.0] * 40 + [100.0 + 0.5 * i for i in range(1, 30)] + [115.0] * 10
    pts = points(values)
    a = detector.assess(pts[:-1], pts[-1], direction=LOWER, thresholds=T)
    d = a.decision
    assert d.action is Action.OPEN and d.kind == "drift" and d.level is Level.FAIL
    assert d.window_runs == drift.DRIFT_RUNS + 1
    assert d.first_bad_run_id == len(values) - drift.DRIFT_RUNS
    assert d.baseline_value == 100.0 and d.change_pct is not None and d.change_pct > 10
    assert d.contributors and all(c.change_pct > 0 for c in d.contributors)
    assert {c.run_id for c in d.contributors} <= {p.run_id for p in pts[40:]}


def test_an_open_drift_alert_keeps_until_the_level_is_back() -> None:
    base = [100.0] * 60
    alert = OpenAlert(30, 100.0, 5.0, "drift")
    worse = detector.assess(
        points([*base, *[106.0] * 10]), Point(70, 106.0), direction=LOWER, thresholds=T, alert=alert
    )
    assert worse.decision.action is Action.KEEP
    back = detector.assess(
        points([*base, *[101.0] * 10]), Point(70, 101.0), direction=LOWER, thresholds=T, alert=alert
    )
    assert back.decision.action is Action.RESOLVE


def test_higher_is_better_drifts_downwards() -> None:
    values = [200 - v for v in trend(220, per_run=0.001, start=40, sigma=0.005, seed=9)]
    opened = replay(points(values), direction=HIGHER, thresholds=T)
    assert [a["kind"] for a in opened] == ["drift"]


def test_warm_up_needs_strong_evidence() -> None:
    # A 7 % step right after the first judged runs (floor 5 %): not yet 2 floors, no alert.
    values = noisy(40, seed=11, sigma=0.005, step_at=14, step=0.07)[:22]
    assert replay(points(values), direction=LOWER, thresholds=T) == []
    # A 30 % step there is strong evidence: it opens.
    values = noisy(40, seed=11, sigma=0.005, step_at=14, step=0.30)[:22]
    assert [a["index"] for a in replay(points(values), direction=LOWER, thresholds=T)] == [14]
