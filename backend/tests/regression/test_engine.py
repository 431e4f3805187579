"""The pure engine (sample statistics, pairwise verdicts): examples and invariants."""

from __future__ import annotations

import math
from statistics import median

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from benchdash.regression import engine
from benchdash.regression.engine import Baseline, Level, Thresholds

T = Thresholds(5.0, 10.0)


def baseline(base: list[list[float]]) -> Baseline | None:
    """The median of earlier runs' values, with their samples pooled."""
    if not base:
        return None
    mid = median(engine.summarize(s).value for s in base)
    pooled = tuple(x for s in base for x in s)
    return Baseline(mid, tuple(range(len(base))), pooled, "median")


def judge(
    new: list[float], base: list[list[float]], direction: str = engine.HIGHER
) -> engine.Verdict:
    return engine.judge(
        current=engine.summarize(new), direction=direction, baseline=baseline(base), thresholds=T
    )


def test_iqr_removes_the_outlier_and_counts_it() -> None:
    s = engine.summarize([10, 10.1, 9.9, 10.05, 30])
    assert s.outliers_removed == 1
    assert s.max == 30 and max(s.clean) < 11
    assert s.n == 5


def test_single_values_are_judged_by_the_thresholds_alone() -> None:
    b = Baseline(100.0, (1,), (), "pinned")
    v = engine.judge(
        current=engine.summarize([], 88.0), direction=engine.HIGHER, baseline=b, thresholds=T
    )
    assert v.level is Level.FAIL and v.gate is None and v.p_value is None


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
    b = baseline(base)
    assert b is not None
    v = engine.judge(
        current=engine.summarize([b.value] * 3), direction=engine.HIGHER, baseline=b, thresholds=T
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
