"""Confirmed steps graded by their estimated size (grade.py), not by single-run floors."""

from __future__ import annotations

import math

import pytest

from benchdash.regression.engine import HIGHER, LOWER, Level, Thresholds
from benchdash.regression.grade import Size, grade, step_size
from benchdash.regression.replay import replay

from .series import noisy, points

T = Thresholds(5.0, 10.0)


def test_the_size_of_a_clean_step_is_exact() -> None:
    s = step_size([100.0] * 20, [112.0] * 3, direction=LOWER)
    assert s == Size(pytest.approx(12.0), pytest.approx(12.0), pytest.approx(12.0))  # type: ignore[arg-type]
    up = step_size([100.0] * 20, [88.0] * 3, direction=HIGHER)
    assert up.estimate == pytest.approx(12.0) and up.low == pytest.approx(12.0)


def test_the_interval_holds_the_estimate_and_narrows_with_runs() -> None:
    before = noisy(20, seed=4, sigma=0.02)
    few = step_size(before, noisy(3, seed=5, sigma=0.02, level=112.0), direction=LOWER)
    many = step_size(before, noisy(15, seed=5, sigma=0.02, level=112.0), direction=LOWER)
    for s in (few, many):
        assert s.low <= s.estimate <= s.high
    assert many.high - many.low < few.high - few.low


def test_too_few_runs_leave_the_interval_open() -> None:
    s = step_size([100.0, 101.0], [110.0], direction=LOWER)
    assert s.low == -math.inf and s.high == math.inf
    assert grade(s, T) is Level.WARN  # not surely more than a warning


def test_grading_follows_the_configured_thresholds() -> None:
    assert grade(Size(12.0, 9.0, 15.0), T) is Level.FAIL
    assert grade(Size(12.0, 4.0, 20.0), T) is Level.WARN  # could be a mere warning
    assert grade(Size(9.0, 8.0, 10.0), T) is Level.WARN
    assert grade(Size(10.0, 9.0, 11.0), T) is Level.WARN  # fail is "above", as the verdicts


def test_a_12_percent_step_at_2_percent_noise_fails_in_at_least_90_percent_of_series() -> None:
    graded = []
    for seed in range(20):
        values = noisy(100, seed=100 + seed, sigma=0.02, step_at=60, step=0.12)
        opened = replay(points(values), direction=LOWER, thresholds=T)
        hit = [a for a in opened if abs(a["index"] - 60) <= 5]
        assert hit, f"seed {seed}: the step was not found"
        graded.append(hit[0]["level"])
    assert graded.count("fail") >= 18, graded


def test_a_7_percent_step_at_1_percent_noise_warns() -> None:
    values = noisy(100, seed=7, sigma=0.01, step_at=60, step=0.07)
    opened = replay(points(values), direction=LOWER, thresholds=T)
    assert [a["level"] for a in opened if abs(a["index"] - 60) <= 5] == ["warn"]
