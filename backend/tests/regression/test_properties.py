"""Invariants of the detector, checked with hypothesis."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from benchdash.regression import detector
from benchdash.regression.engine import HIGHER, LOWER, Level, Thresholds
from benchdash.regression.floors import MIN_HISTORY
from benchdash.regression.model import Point
from benchdash.regression.replay import replay

from .series import points

T = Thresholds(5.0, 10.0)
FAST = settings(max_examples=15, deadline=None)
NOISE = settings(max_examples=15, deadline=None, derandomize=True)  # seeded noise: no flakes


@st.composite
def series(draw: st.DrawFn) -> list[float]:
    """Gaussian noise, sometimes with one step, of 25–50 runs."""
    n = draw(st.integers(25, 50))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    sigma = draw(st.sampled_from([0.003, 0.01, 0.03]))
    values = 100 * (1 + rng.normal(0, sigma, n))
    if draw(st.booleans()):
        at = draw(st.integers(12, n - 1))
        values[at:] *= draw(st.sampled_from([0.8, 0.9, 1.12, 1.3]))
    return [float(v) for v in values]


def verdicts(values: list[float], direction: str) -> list[detector.UploadVerdict]:
    """The verdict of every run after the runs before it."""
    pts = points(values)
    return [
        detector.assess(pts[:i], pts[i], direction=direction, thresholds=T).verdict
        for i in range(len(pts))
    ]


@FAST
@given(series(), st.integers(-30, 30))
def test_scale_invariance(values: list[float], k: int) -> None:
    scaled = [v * 2.0**k for v in values]
    for d in (LOWER, HIGHER):
        assert replay(points(scaled), direction=d, thresholds=T) == replay(
            points(values), direction=d, thresholds=T
        )
    assert [v.level for v in verdicts(scaled, LOWER)] == [v.level for v in verdicts(values, LOWER)]


@FAST
@given(series())
def test_direction_symmetry(values: list[float]) -> None:
    for lower, higher in zip(verdicts(values, LOWER), verdicts(values, HIGHER), strict=True):
        assert lower.floors == higher.floors
        if lower.change_pct is not None and higher.change_pct is not None:
            assert lower.change_pct == -higher.change_pct
        if lower.window is not None or higher.window is not None:  # a shift of the level:
            assert (lower.window is None) != (higher.window is None)  # worse one way only
            continue
        if lower.suspected:
            assert higher.level is Level.IMPROVED and not higher.suspected
        if higher.suspected:
            assert lower.level is Level.IMPROVED
    up = {a["index"] for a in replay(points(values), direction=LOWER, thresholds=T)}
    down = {a["index"] for a in replay(points(values), direction=HIGHER, thresholds=T)}
    assert not up & down  # one step is a regression in one direction only


@FAST
@given(st.lists(st.floats(1e-6, 1e9), min_size=1, max_size=45), st.sampled_from([LOWER, HIGHER]))
def test_a_run_equal_to_the_baseline_is_never_flagged(values: list[float], d: str) -> None:
    pts = points(values)
    first = detector.assess(pts, Point(len(pts), values[-1]), direction=d, thresholds=T)
    assert first.verdict.baseline is not None
    again = detector.assess(
        pts, Point(len(pts), first.verdict.baseline.value), direction=d, thresholds=T
    ).verdict
    young = len(values) < MIN_HISTORY  # too short to judge: learning, whatever the value
    assert again.level is (Level.LEARNING if young else Level.OK)
    assert again.change_pct == 0 and not again.suspected


@FAST
@given(st.floats(1e-9, 1e12), st.integers(1, 70), st.sampled_from([LOWER, HIGHER]))
def test_a_constant_series_is_always_ok(c: float, n: int, d: str) -> None:
    assert replay(points([c] * n), direction=d, thresholds=T) == []
    calm = (Level.OK, Level.LEARNING, Level.NO_BASELINE)
    assert all(v.level in calm for v in verdicts([c] * n, d))


@NOISE
@given(
    st.integers(0, 2**32 - 1),
    st.floats(0.005, 0.2),
    st.lists(st.floats(0.01, 1.0), min_size=2, max_size=3),
    st.sampled_from([LOWER, HIGHER]),
)
def test_no_alert_on_random_hops_between_quanta(
    seed: int, quantum: float, weights: list[float], d: str
) -> None:
    rng = np.random.default_rng(seed)
    p = np.asarray(weights) / sum(weights)
    values = [float(v) for v in 100 * (1 + quantum * rng.choice(len(p), size=90, p=p))]
    assert replay(points(values), direction=d, thresholds=T) == []
    # once the series has shown its quantum, only a move of more than two is suspected
    hops = [v for v in verdicts(values, d) if v.suspected and v.floors.resolution]
    assert all(abs(v.change_pct or 0) > 2 * quantum * 100 for v in hops)


@NOISE
@given(
    st.integers(0, 2**32 - 1),
    st.floats(0.002, 0.08),
    st.floats(0.2, 3.0),
    st.booleans(),
    st.sampled_from([LOWER, HIGHER]),
)
def test_no_alert_on_rounded_noise(
    seed: int, sigma: float, grid: float, heavy: bool, d: str
) -> None:
    rng = np.random.default_rng(seed)
    noise = rng.standard_t(3, 90) * sigma if heavy else rng.normal(0, sigma, 90)
    step = grid * sigma  # a coarse timer: the grid is 0.2 to 3 noise widths
    values = [float(v) for v in np.round((1 + noise) / step) * step * 100]
    assert replay(points(values), direction=d, thresholds=T) == []


@NOISE
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from(["gaussian", "heavy", "bimodal"]),
    st.floats(0.002, 0.1),
    st.sampled_from([LOWER, HIGHER]),
)
def test_no_alert_on_noise(seed: int, kind: str, sigma: float, d: str) -> None:
    rng = np.random.default_rng(seed)
    if kind == "gaussian":
        noise = rng.normal(0, sigma, 90)
    elif kind == "heavy":
        noise = rng.standard_t(3, 90) * sigma
    else:
        noise = rng.normal(0, sigma, 90) + 4 * sigma * (rng.random(90) < 0.25)
    values = [float(v) for v in 100 * (1 + noise).clip(0.05)]
    assert replay(points(values), direction=d, thresholds=T) == []
