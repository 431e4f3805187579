"""Invariants of the step grading and the drift check, checked with hypothesis."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from benchdash.regression import changepoint, drift
from benchdash.regression.engine import HIGHER, LOWER, Level, Thresholds
from benchdash.regression.grade import grade, step_size

T = Thresholds(5.0, 10.0)
SEEDED = settings(max_examples=40, deadline=None, derandomize=True)

level = st.floats(min_value=1e-3, max_value=1e6)
runs = st.lists(st.floats(min_value=0.5, max_value=2.0), min_size=1, max_size=30)


@SEEDED
@given(before=runs, after=runs, scale=level, direction=st.sampled_from([LOWER, HIGHER]))
def test_the_size_interval_holds_the_estimate_and_ignores_the_scale(
    before: list[float], after: list[float], scale: float, direction: str
) -> None:
    s = step_size(before, after, direction=direction)
    assert s.low <= s.estimate <= s.high
    scaled = step_size([x * scale for x in before], [x * scale for x in after], direction=direction)
    assert math.isclose(scaled.estimate, s.estimate, rel_tol=1e-6, abs_tol=1e-6)


@SEEDED
@given(before=runs, after=runs)
def test_swapping_direction_negates_the_size(before: list[float], after: list[float]) -> None:
    lo, hi = step_size(before, after, direction=LOWER), step_size(before, after, direction=HIGHER)
    assert math.isclose(lo.estimate, -hi.estimate, abs_tol=1e-9)
    assert math.isclose(lo.low, -hi.high, abs_tol=1e-9) or math.isinf(lo.low)


@SEEDED
@given(before=runs, after=runs, shift=st.floats(min_value=0.0, max_value=1.0))
def test_a_larger_step_never_grades_lower(
    before: list[float], after: list[float], shift: float
) -> None:
    small = step_size(before, after, direction=LOWER)
    large = step_size(before, [x + shift for x in after], direction=LOWER)
    assert large.estimate >= small.estimate - 1e-9 and large.low >= small.low - 1e-9
    rank = {Level.WARN: 0, Level.FAIL: 1}
    assert rank[grade(large, T)] >= rank[grade(small, T)]
    if grade(large, T) is Level.FAIL:
        assert large.estimate > T.fail and large.low > T.warn


@SEEDED
@given(
    seed=st.integers(0, 2**32 - 1),
    sigma=st.sampled_from([0.002, 0.01, 0.03]),
    scale=level,
    n=st.integers(drift.HISTORY + 1, 140),
)
def test_a_drift_is_the_same_at_any_scale_and_absent_when_flat(
    seed: int, sigma: float, scale: float, n: int
) -> None:
    rng = np.random.default_rng(seed)
    noise = 1 + rng.normal(0, sigma, n)
    values = [float(x) for x in noise * np.linspace(1, 1.15, n)]
    a = drift.drift(values, direction=LOWER, thresholds=T)
    b = drift.drift([v * scale for v in values], direction=LOWER, thresholds=T)
    assert (a is None) == (b is None)
    if a is not None and b is not None:
        assert a.start == b.start and math.isclose(a.change, b.change, rel_tol=1e-6)
        assert a.change * 100 >= T.warn and a.p_value < changepoint.ALPHA
        assert all(
            abs(i - j) >= drift.LOCAL_RUNS
            for i, _ in a.contributors
            for j, _ in a.contributors
            if i != j
        )
    assert (
        drift.drift([float(x) for x in noise], direction=LOWER, thresholds=Thresholds(50, 60))
        is None
    )


@SEEDED
@given(n=st.integers(8, 60), slope=st.floats(min_value=0.01, max_value=5), data=st.data())
def test_a_straight_line_is_a_trend_and_a_clean_step_is_not(
    n: int, slope: float, data: st.DataObject
) -> None:
    c = data.draw(st.integers(2, n - 2))
    line = [100 + slope * i for i in range(n)]
    step = [100.0] * c + [100.0 + slope * n] * (n - c)
    assert drift.trend_like(line, c)
    assert not drift.trend_like(step, c)
