"""Noise-calibrated floors."""

from __future__ import annotations

import pytest

from benchdash.regression.engine import Thresholds
from benchdash.regression.floors import MIN_HISTORY, floors, relative_steps

T = Thresholds(5.0, 10.0)


def test_quiet_series_keeps_the_configured_thresholds() -> None:
    values = [100.0, 101.0] * 15
    f = floors(values, T)
    assert f.variation == pytest.approx(1.0, rel=0.02)  # every step is 1 % (or 0.99 %)
    assert (f.warn, f.fail) == (5.0, 10.0)
    assert f.runs == 30


def test_noisy_series_raises_both_floors() -> None:
    values = [100.0, 110.0, 110.5] * 10  # steps of +10 %, +0.45 %, −9.5 %
    f = floors(values, T)
    assert f.variation == pytest.approx(10.0)
    assert f.resolution == pytest.approx(0.5 / 110 * 100)
    assert f.warn == pytest.approx(20.0)
    assert f.fail == pytest.approx(25.0)  # keeps its configured 5-point distance


def test_only_the_newest_30_runs_count() -> None:
    values = [100.0, 150.0] * 20 + [100.0, 100.5] * 15
    assert floors(values, T).variation == pytest.approx(0.5, rel=0.01)


def test_one_real_step_does_not_raise_the_floor() -> None:
    values = [100.0, 100.5] * 10 + [130.0, 130.6] * 10
    f = floors(values, T)
    assert f.warn == 5.0


def test_quantised_series_needs_more_than_two_quanta() -> None:
    values = [10.0] * 25 + [11.0, 10.0, 10.0, 10.0, 10.0]
    f = floors(values, T)
    assert f.variation == 0.0
    assert f.resolution == pytest.approx(10.0)  # one quantum, 1, of the median, 10
    assert f.warn == pytest.approx(25.0)


def test_a_constant_counter_that_steps_once_keeps_the_configured_floors() -> None:
    values = [2048.0] * 20 + [2355.0] * 3  # allocations per op: constant, then 15 % more
    f = floors(values, T)
    assert f.variation == 0.0 and f.resolution == 0.0
    assert (f.warn, f.fail) == (5.0, 10.0)


def test_a_quantum_is_a_difference_that_repeats() -> None:
    spiky = [10.0] * 20 + [10.3, 10.0] + [10.0] * 5 + [10.2, 10.0, 10.0]  # 0.3 twice, 0.2 twice
    assert floors(spiky, T).resolution == pytest.approx(2.0)
    assert floors([1.0] * 20 + [1.07] * 9, T).resolution == 0.0


def test_too_few_runs_leave_the_configured_floors() -> None:
    f = floors([100.0, 130.0] * ((MIN_HISTORY - 1) // 2), T)
    assert f.variation is None and (f.warn, f.fail) == (5.0, 10.0)


def test_breaks_skip_the_pair_across_a_restart() -> None:
    assert list(relative_steps([100.0, 200.0, 202.0], breaks={1})) == [pytest.approx(0.01)]
    assert len(relative_steps([0.0, 1.0, 2.0])) == 1  # no relative change from 0
