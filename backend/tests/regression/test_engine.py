"""The pure regression engine: examples and property-based invariants."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from benchdash.regression import engine
from benchdash.regression.engine import Baseline, BaselinePoint, Level, Thresholds

T = Thresholds(5.0, 10.0)


def judge(
    new: list[float], base: list[list[float]], direction: str = engine.HIGHER
) -> engine.Verdict:
    points = [BaselinePoint(i, engine.summarize(s).value, tuple(s)) for i, s in enumerate(base)]
    return engine.judge(
        current=engine.summarize(new),
        direction=direction,
        baseline=engine.build_baseline(points),
        thresholds=T,
        history_values=[p.value for p in points],
    )


def test_iqr_removes_the_outlier_and_counts_it() -> None:
    s = engine.summarize([10, 10.1, 9.9, 10.05, 30])
    assert s.outliers_removed == 1
    assert s.max == 30 and max(s.clean) < 11
    assert s.n == 5


def test_baseline_is_median_of_five_newest() -> None:
    pts = [BaselinePoint(i, v) for i, v in enumerate([1, 2, 100, 4, 5, 6, 7])]
    b = engine.build_baseline(pts)
    assert b is not None and b.value == 4 and b.run_ids == (0, 1, 2, 3, 4)


def test_pinned_wins_over_history() -> None:
    b = engine.build_baseline([BaselinePoint(1, 5.0)], pinned=BaselinePoint(9, 7.0))
    assert b is not None and (b.value, b.source, b.run_ids) == (7.0, "pinned", (9,))


def test_single_values_use_the_mad_gate() -> None:
    history = [100, 101, 99, 100.5, 99.5, 100.2, 99.8]
    points = [BaselinePoint(i, v) for i, v in enumerate(history)]
    cur = engine.summarize([], 88.0)
    v = engine.judge(
        current=cur,
        direction=engine.HIGHER,
        baseline=engine.build_baseline(points),
        thresholds=T,
        history_values=history,
    )
    assert v.level is Level.FAIL and v.gate == "mad" and v.z_score is not None and v.z_score >= 4
    # The same drop inside a wildly swinging history is noise.
    wild = [100, 80, 120, 90, 110, 85, 115]
    points = [BaselinePoint(i, x) for i, x in enumerate(wild)]
    v = engine.judge(
        current=cur,
        direction=engine.HIGHER,
        baseline=engine.build_baseline(points),
        thresholds=T,
        history_values=wild,
    )
    assert v.level is Level.NOISY


def test_high_cv_without_a_significant_change_is_unstable() -> None:
    v = judge([80, 100, 120, 90, 110], [[100, 101, 99]] * 5)
    assert v.level is Level.UNSTABLE


def test_no_history_is_no_baseline() -> None:
    assert judge([1.0, 1.0, 1.0], []).level is Level.NO_BASELINE


def test_zero_baseline_counts_any_error_as_worse() -> None:
    assert engine.change_worse(3, 0, engine.LOWER) == math.inf
    assert engine.change_worse(0, 0, engine.LOWER) == 0


def test_unknown_direction_raises() -> None:
    with pytest.raises(ValueError, match="unknown direction"):
        engine.change_worse(1, 1, "sideways")


values = st.floats(min_value=1.0, max_value=1e6, allow_nan=False, allow_infinity=False)
sample_sets = st.lists(values, min_size=3, max_size=8)


@settings(max_examples=150, deadline=None)
@given(
    new=sample_sets,
    base=st.lists(sample_sets, min_size=1, max_size=6),
    k=st.floats(min_value=1e-3, max_value=1e3),
)
def test_scaling_every_value_leaves_the_verdict_unchanged(
    new: list[float], base: list[list[float]], k: float
) -> None:
    a = judge(new, base)
    b = judge([x * k for x in new], [[x * k for x in s] for s in base])
    # Floating point can move a value sitting exactly on a threshold; skip those edges.
    assume(a.change_pct is None or all(abs(abs(a.change_pct) - t) > 1e-6 for t in (5.0, 10.0)))
    assert a.level == b.level


SWAP = {
    Level.FAIL: {Level.IMPROVED},
    Level.WARN: {Level.IMPROVED},
    Level.IMPROVED: {Level.WARN, Level.FAIL},
    Level.OK: {Level.OK},
    Level.NOISY: {Level.NOISY},
    Level.UNSTABLE: {Level.UNSTABLE},
    Level.NO_BASELINE: {Level.NO_BASELINE},
}


@settings(max_examples=150, deadline=None)
@given(new=sample_sets, base=st.lists(sample_sets, min_size=1, max_size=6))
def test_swapping_direction_swaps_regression_and_improvement(
    new: list[float], base: list[list[float]]
) -> None:
    up = judge(new, base, engine.HIGHER)
    down = judge(new, base, engine.LOWER)
    assume(up.change_pct is None or all(abs(abs(up.change_pct) - t) > 1e-6 for t in (5.0, 10.0)))
    assert down.level in SWAP[up.level]
    if up.change_pct is not None and down.change_pct is not None:
        assert up.change_pct == pytest.approx(-down.change_pct)


@settings(max_examples=100, deadline=None)
@given(base=st.lists(sample_sets, min_size=1, max_size=6))
def test_a_run_equal_to_its_baseline_is_never_flagged(base: list[list[float]]) -> None:
    points = [BaselinePoint(i, engine.summarize(s).value, tuple(s)) for i, s in enumerate(base)]
    baseline = engine.build_baseline(points)
    assert baseline is not None
    v = engine.judge(
        current=engine.summarize([baseline.value] * 3),
        direction=engine.HIGHER,
        baseline=baseline,
        thresholds=T,
    )
    assert v.level is Level.OK


@settings(max_examples=100, deadline=None)
@given(new=sample_sets, base=st.lists(sample_sets, min_size=1, max_size=6))
def test_alerting_levels_always_cross_their_threshold(
    new: list[float], base: list[list[float]]
) -> None:
    v = judge(new, base)
    if v.level is Level.FAIL:
        assert v.change_pct is None or v.change_pct > T.fail
    if v.level is Level.WARN:
        assert T.warn <= (v.change_pct or 0) <= T.fail
    if v.level is Level.IMPROVED:
        assert v.change_pct is not None and v.change_pct <= -T.warn
    if v.level in (Level.FAIL, Level.WARN, Level.IMPROVED) and v.gate == "welch":
        assert v.p_value is not None and v.p_value < engine.ALPHA


def test_baseline_dataclass_is_what_judge_reads() -> None:
    b = Baseline(100.0, (1, 2), (99.0, 100.0, 101.0), "median")
    v = engine.judge(
        current=engine.summarize([88.0, 88.2, 87.9]),
        direction=engine.HIGHER,
        baseline=b,
        thresholds=T,
    )
    assert v.level is Level.FAIL and v.baseline is b
