"""The two-stage detector: verdicts, CI-fed alerts, runner re-runs (the issue's must-shows)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from benchdash.regression import confirm, detector
from benchdash.regression.engine import HIGHER, LOWER, Level, Thresholds
from benchdash.regression.model import Action, Mode, OpenAlert, Point, Stage
from benchdash.regression.replay import replay, replay_runner

from .series import noisy, points

T = Thresholds(5.0, 10.0)


def assess(values: list[float], new: float, **kw: object) -> detector.Assessment:
    """Assess `new` after `values` (lower is better unless told)."""
    kw.setdefault("direction", LOWER)
    return detector.assess(points(values), Point(len(values), new, "new"), thresholds=T, **kw)  # type: ignore[arg-type]


def test_a_clear_worse_run_is_suspected_but_opens_nothing() -> None:
    a = assess(noisy(40, seed=1), 112.0)
    assert a.verdict.level is Level.FAIL and a.verdict.suspected
    assert a.verdict.gate == "floor" and a.verdict.floors.warn == 5.0
    assert a.verdict.baseline is not None and len(a.verdict.baseline.run_ids) == 30
    assert a.decision.action is Action.NONE


def test_the_same_change_on_a_noisy_series_is_noise() -> None:
    a = assess(noisy(40, seed=1, sigma=0.06), 112.0)
    assert a.verdict.level is Level.NOISY and not a.verdict.suspected
    assert a.verdict.floors.warn > 12 and a.verdict.z_score is not None


def test_a_run_at_the_baseline_is_ok() -> None:
    values = noisy(40, seed=2)
    base = assess(values, values[-1]).verdict.baseline
    assert base is not None
    v = assess(values, base.value).verdict
    assert v.level is Level.OK and v.change_pct == 0


def test_too_little_history_is_said_and_never_suspected() -> None:
    v = assess([100.0, 100.0, 100.0], 150.0).verdict
    assert v.level is Level.LEARNING and not v.suspected and v.gate == "history-too-short"
    assert v.reason is not None and v.reason == "3 of the 10 runs needed to measure the noise"
    assert assess([], 1.0).verdict.level is Level.NO_BASELINE


def test_a_pinned_run_is_the_baseline() -> None:
    pinned = Point(99, 90.0, "pinned")
    v = assess(noisy(40, seed=3), 100.0, pinned=pinned).verdict
    assert v.baseline is not None and v.baseline.source == "pinned" and v.baseline.run_ids == (99,)
    assert v.level is Level.FAIL


def test_samples_must_agree_within_the_run() -> None:
    hist = [
        replace(p, samples=(p.value * 0.9, p.value, p.value * 1.1))
        for p in points(noisy(40, seed=4))
    ]
    wide = Point(40, 107.0, "new", (80.0, 107.0, 134.0))
    a = detector.assess(hist, wide, direction=LOWER, thresholds=T)
    assert a.verdict.gate == "floor+welch" and a.verdict.p_value is not None
    assert a.verdict.p_value >= 0.05 and not a.verdict.suspected
    assert a.verdict.level is Level.UNSTABLE  # cv 25 %: the samples cannot tell


def test_ci_step_of_12_percent_opens_one_alert_within_3_runs_naming_its_commit() -> None:
    values = noisy(80, seed=5, step_at=50)
    values[50:] = [v * 1.12 for v in values[50:]]
    alerts = replay(points(values), direction=LOWER, thresholds=T)
    assert len(alerts) == 1
    assert alerts[0]["index"] == 50 and alerts[0]["alarm_index"] <= 53
    assert alerts[0]["level"] == "fail"


def test_ci_decision_names_the_commit_range() -> None:
    values = noisy(53, seed=6, step_at=50, step=0.12)
    a = assess(values[:-1], values[-1])
    d = a.decision
    assert d.action is Action.OPEN and d.confirmed_by == "change-point"
    assert (d.first_bad_run_id, d.first_bad_commit) == (50, "c50")
    assert (d.last_good_run_id, d.last_good_commit) == (49, "c49")
    assert d.change_pct is not None and 10 < d.change_pct < 14 and d.warn_floor == 5.0


def test_a_spike_never_alerts() -> None:
    for seed in range(5):
        values = noisy(80, seed=seed, spike_at=50)
        assert replay(points(values), direction=LOWER, thresholds=T) == [], seed


def test_no_change_no_alert() -> None:
    for seed in range(5):
        for sigma in (0.005, 0.02, 0.08):
            values = noisy(120, seed=seed, sigma=sigma)
            for d in (LOWER, HIGHER):
                assert replay(points(values), direction=d, thresholds=T) == [], (seed, sigma, d)


def test_a_second_step_opens_a_second_alert_that_supersedes() -> None:
    values = noisy(120, seed=7)
    values[50:] = [v * 1.15 for v in values[50:]]
    values[90:] = [v * 1.15 for v in values[90:]]
    alerts = replay(points(values), direction=LOWER, thresholds=T)
    assert [a["index"] for a in alerts] == [50, 90]


def test_confirmed_point_restarts_the_baseline_and_recovery_resolves() -> None:
    values = noisy(60, seed=8, step_at=40, step=0.2)
    pts = points(values)
    pts[40] = replace(pts[40], stage=Stage.CONFIRMED)
    alert = OpenAlert(40, 100.0, 5.0)
    worse = detector.assess(pts, Point(60, 120.5), direction=LOWER, thresholds=T, alert=alert)
    assert worse.verdict.level is Level.OK  # judged against the new level
    assert worse.decision.action is Action.KEEP
    back = pts + [Point(60 + i, 100.0 + i / 10) for i in range(2)]
    d = detector.assess(back, Point(62, 100.1), direction=LOWER, thresholds=T, alert=alert).decision
    assert d.action is Action.RESOLVE


def test_an_accepted_change_restarts_the_baseline() -> None:
    values = noisy(60, seed=12, step_at=45, step=0.3)
    pts = points(values)
    pts[45] = replace(pts[45], restart=True)  # "expected: new allocator"
    assert replay(pts[:46], direction=LOWER, thresholds=T) == []
    for n in range(46, 60):  # never an alert for the accepted step
        assert (
            detector.assess(pts[:n], pts[n], direction=LOWER, thresholds=T).decision.action
            is Action.NONE
        )
    short = detector.assess(pts[:46], pts[46], direction=LOWER, thresholds=T).verdict
    assert short.gate == "history-too-short" and short.reason is not None
    assert "restarted at run #45" in short.reason
    later = detector.assess(pts[:50], pts[50], direction=LOWER, thresholds=T).verdict
    assert later.baseline is not None and min(later.baseline.run_ids) == 45
    assert later.level is Level.OK
    marked = detector.assess(
        pts[:45], replace(pts[45], restart=True), direction=LOWER, thresholds=T
    )
    assert marked.verdict.reason == "this run restarts the baseline"
    assert marked.decision.action is Action.NONE


def test_runner_step_opens_exactly_one_alert_after_its_reruns() -> None:
    values = noisy(80, seed=9, step_at=50, step=0.12)
    level = lambda i: 100.0 * (1.12 if i >= 50 else 1.0)  # noqa: E731
    rerun = lambda i, k: Point(1000 + 10 * i + k, level(i) * (1 + 0.002 * (k - 0.5)), f"c{i}")  # noqa: E731
    alerts = replay_runner(points(values), direction=LOWER, thresholds=T, rerun=rerun)
    assert alerts == [{"index": 50, "level": "fail"}]


def test_runner_spike_is_dismissed_by_its_reruns() -> None:
    values = noisy(80, seed=10, spike_at=50)
    rerun = lambda i, k: Point(1000 + 10 * i + k, 100.0, f"c{i}")  # noqa: E731
    assert replay_runner(points(values), direction=LOWER, thresholds=T, rerun=rerun) == []


def test_runner_mode_never_opens_from_assess() -> None:
    values = noisy(53, seed=6, step_at=50, step=0.12)
    a = assess(values[:-1], values[-1], mode=Mode.RUNNER)
    assert a.decision.action is Action.NONE and a.verdict.suspected


def test_confirm_reruns() -> None:
    values = noisy(40, seed=11)
    suspect = Point(40, 112.0, "c40")
    v = detector.assess(points(values), suspect, direction=LOWER, thresholds=T).verdict
    keep = confirm.confirm_reruns(
        suspect=suspect, verdict=v, reruns=[Point(41, 111.5), Point(42, 112.4)], direction=LOWER
    )
    assert keep.action is Action.OPEN and keep.confirmed_by == "re-runs"
    assert keep.first_bad_commit == "c40" and keep.level is Level.FAIL
    gone = confirm.confirm_reruns(
        suspect=suspect, verdict=v, reruns=[Point(41, 112.0), Point(42, 100.3)], direction=LOWER
    )
    assert gone.action is Action.NONE
    ok = detector.assess(points(values), Point(40, 100.0), direction=LOWER, thresholds=T).verdict
    with pytest.raises(ValueError, match="suspected"):
        confirm.confirm_reruns(suspect=suspect, verdict=ok, reruns=[suspect], direction=LOWER)


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="direction"):
        assess([1.0], 1.0, direction="sideways")
    with pytest.raises(ValueError, match="finite"):
        assess([1.0, float("nan")], 1.0)
