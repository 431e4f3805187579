"""Change points and lasting steps in a window."""

from __future__ import annotations

from benchdash.regression import changepoint
from benchdash.regression.changepoint import MAX_AGE, newest_step
from benchdash.regression.engine import HIGHER, LOWER

from .series import noisy


def test_a_step_is_found_where_it_starts() -> None:
    values = noisy(50, seed=1, step_at=35, step=0.12)
    assert changepoint.change_points(values) == [35]


def test_a_lone_spike_is_merged_away() -> None:
    values = noisy(50, seed=2, spike_at=30)
    assert changepoint.change_points(values) == []


def test_noise_has_no_change_points() -> None:
    for seed in range(5):
        assert changepoint.change_points(noisy(59, seed=seed, sigma=0.02)) == [], seed


def test_three_worse_runs_after_twenty_confirm_a_step() -> None:
    values = noisy(43, seed=3, step_at=40, step=0.12)
    step = newest_step(values, direction=LOWER, floor=0.05)
    assert step is not None and step.index == 40 and step.by == "change-point"
    assert 0.10 < step.change < 0.14 and step.p_value < changepoint.ALPHA
    assert newest_step(values[:42], direction=LOWER, floor=0.05) is None  # two runs: not yet


def test_direction_decides_what_is_worse() -> None:
    up = noisy(45, seed=4, step_at=40, step=0.12)
    assert newest_step(up, direction=LOWER, floor=0.05) is not None
    assert newest_step(up, direction=HIGHER, floor=0.05) is None  # faster is no regression


def test_a_step_below_the_floor_is_not_a_step() -> None:
    values = noisy(45, seed=5, step_at=40, step=0.12)
    assert newest_step(values, direction=LOWER, floor=0.20) is None


def test_an_old_step_is_no_longer_news() -> None:
    values = noisy(40 + MAX_AGE + 1, seed=6, step_at=40, step=0.2)
    assert newest_step(values, direction=LOWER, floor=0.05) is None


def test_persistence_confirms_when_the_old_level_has_outliers() -> None:
    # old level with scattered slow outliers (the rank test cannot reach p < 0.001 with 10
    # runs before and 4 after), then four runs all 12 % worse: persistence confirms.
    old = [100.0, 100.4, 99.8, 113.5, 100.1, 99.9, 100.2, 113.8, 100.0, 99.7]
    values = [*old, 112.0, 112.3, 111.8, 112.1]
    step = newest_step(values, direction=LOWER, floor=0.05)
    assert step is not None and step.index == 10 and step.by == "persistence"
    assert step.p_value >= changepoint.ALPHA


def test_too_little_before_a_change_point_is_not_judged() -> None:
    values = [100.0, 100.2, 99.9, 100.1, 100.0, 99.8, 112.0, 112.1, 111.9, 112.2]
    assert newest_step(values, direction=LOWER, floor=0.05) is None
