"""A pull request's run decided on its own samples against its base's recent runs (pr.py)."""

from __future__ import annotations

import random

from benchdash.regression import pr
from benchdash.regression.engine import HIGHER, LOWER, Thresholds
from benchdash.regression.model import Point

T = Thresholds(5.0, 10.0)


def _samples(rng: random.Random, level: float, noise: float, n: int = 5) -> list[float]:
    return [level * (1 + rng.gauss(0, noise)) for _ in range(n)]


def _base(level: float, noise: float, runs: int = 10, seed: int = 1) -> list[Point]:
    rng = random.Random(seed)
    out = []
    for i in range(runs):
        s = _samples(rng, level, noise)
        out.append(Point(100 + i, sorted(s)[2], f"{i:040x}", tuple(s)))
    return out


def test_a_clear_slowdown_fails_on_the_first_run() -> None:
    rng = random.Random(7)
    call = pr.judge_series(
        _base(100.0, 0.005), _samples(rng, 115.0, 0.005), 115.0, direction=LOWER, thresholds=T
    )
    assert call.outcome == pr.FAIL, call.reason
    assert call.size is not None and 13 < call.size.estimate < 17 and call.size.low > 5
    assert call.base_runs == tuple(range(100, 110))
    assert "15 % worse" in call.reason and "last 10 runs" in call.reason


def test_a_small_change_in_noise_is_uncertain_and_says_what_would_tell() -> None:
    rng = random.Random(3)
    call = pr.judge_series(
        _base(100.0, 0.2, seed=2), _samples(rng, 102.0, 0.2), 102.0, direction=LOWER, thresholds=T
    )
    assert call.outcome == pr.UNCERTAIN, call.reason
    assert call.reason.startswith("5 samples, noise ") and "not enough to tell" in call.reason
    assert "repeat the benchmark" in call.reason


def test_clean_and_improved_runs_are_ok() -> None:
    rng = random.Random(5)
    same = pr.judge_series(
        _base(100.0, 0.005), _samples(rng, 100.0, 0.005), 100.0, direction=LOWER, thresholds=T
    )
    faster = pr.judge_series(
        _base(100.0, 0.005), _samples(rng, 130.0, 0.005), 130.0, direction=HIGHER, thresholds=T
    )
    assert (same.outcome, faster.outcome) == (pr.OK, pr.OK), (same.reason, faster.reason)
    assert faster.size is not None and faster.size.estimate < -25  # better: negative


def test_a_moderate_sure_change_warns() -> None:
    rng = random.Random(9)
    call = pr.judge_series(
        _base(100.0, 0.003), _samples(rng, 107.0, 0.003), 107.0, direction=LOWER, thresholds=T
    )
    assert call.outcome == pr.WARN, call.reason


def test_one_run_within_the_base_runs_own_spread_cannot_fail() -> None:
    # Each base run is tight, but the runs sit 20 % apart: one run 15 % slower proves nothing.
    base = [
        Point(i, v, None, tuple(v * (1 + d) for d in (-0.002, 0, 0.002)))
        for i, v in enumerate([100.0, 120.0, 85.0, 110.0, 95.0, 125.0, 90.0, 105.0])
    ]
    call = pr.judge_series(base, [115.0, 115.2, 114.8], 115.0, direction=LOWER, thresholds=T)
    assert call.outcome != pr.FAIL, call.reason


def test_too_few_base_runs_compare_nothing() -> None:
    call = pr.judge_series(
        _base(100.0, 0.01, runs=2), [150.0], 150.0, direction=LOWER, thresholds=T
    )
    assert call.outcome == pr.NO_BASE and "2 run(s)" in call.reason


def test_the_run_verdict() -> None:
    assert pr.verdict([pr.OK, pr.FAIL, pr.UNCERTAIN]) == "fail"
    assert pr.verdict([pr.OK, pr.WARN]) == "neutral"
    assert pr.verdict([pr.OK, pr.UNCERTAIN]) == "neutral"
    assert pr.verdict([pr.OK, pr.NO_BASE]) == "success"
    assert pr.verdict([]) == "success"
