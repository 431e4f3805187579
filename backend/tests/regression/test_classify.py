"""One classification: the compare view (`engine.judge`) and the verdicts (`detector`) agree."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from benchdash.regression import detector
from benchdash.regression.engine import HIGHER, LOWER, Baseline, Level, Thresholds, judge, summarize
from benchdash.regression.model import Floors, Point

finite = st.floats(min_value=1e-3, max_value=1e6, allow_nan=False, allow_infinity=False)
samples = st.lists(finite, max_size=8)


@settings(max_examples=300, deadline=None)
@given(
    value=finite,
    base=finite,
    cur=samples,
    base_samples=samples,
    direction=st.sampled_from([LOWER, HIGHER]),
    warn=st.floats(min_value=0.5, max_value=20),
    gap=st.floats(min_value=0, max_value=20),
)
def test_the_compare_view_and_the_verdicts_agree_at_the_configured_floors(
    value: float,
    base: float,
    cur: list[float],
    base_samples: list[float],
    direction: str,
    warn: float,
    gap: float,
) -> None:
    t = Thresholds(warn, warn + gap)
    baseline = Baseline(base, (1,), tuple(base_samples), "pinned")
    new = Point(2, value, samples=tuple(cur))
    compare = judge(
        current=summarize(cur, value), direction=direction, baseline=baseline, thresholds=t
    )
    verdict = detector._classify(new, baseline, direction, Floors(t, None, 0, t.warn, t.fail))
    assert (compare.level, compare.change_pct, compare.p_value) == (
        verdict.level,
        verdict.change_pct,
        verdict.p_value,
    )
    assert (compare.gate == "welch") == (verdict.gate == "floor+welch")


def test_raised_floors_make_a_configured_crossing_noisy_in_the_verdicts_only() -> None:
    t = Thresholds(5, 10)
    baseline = Baseline(100.0, (1,), (), "median")
    compare = judge(current=summarize((), 107.0), direction=LOWER, baseline=baseline, thresholds=t)
    raised = Floors(t, 6.0, 30, 12.0, 17.0)
    verdict = detector._classify(Point(2, 107.0), baseline, LOWER, raised)
    assert compare.level is Level.WARN and verdict.level is Level.NOISY
