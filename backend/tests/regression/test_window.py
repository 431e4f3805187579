"""The windowed shift test: finds sustained shifts in noise, opens nothing on pure noise."""

from __future__ import annotations

import numpy as np
import pytest

from benchdash.regression.window import window_shift


def _noisy(rng: np.random.Generator, n: int, cv: float) -> np.ndarray:
    return 100.0 * np.exp(rng.normal(0.0, cv, n))


def test_sustained_50pc_shift_in_20pc_noise_is_found_and_named() -> None:
    found = 0
    for seed in range(20):
        rng = np.random.default_rng(seed)
        values = np.concatenate([_noisy(rng, 40, 0.2), 1.5 * _noisy(rng, 15, 0.2)])
        hit = window_shift(list(values))
        if hit is not None:
            found += 1
            assert 40 - 3 <= hit.first <= 40 + 10
            assert hit.change > 0.08
            assert hit.text().startswith(f"Suspected from {hit.runs} runs in a row ~")
    assert found >= 18


def test_lower_is_worse_direction() -> None:
    rng = np.random.default_rng(1)
    values = np.concatenate([_noisy(rng, 40, 0.05), 0.7 * _noisy(rng, 15, 0.05)])
    assert window_shift(list(values), worse_is_higher=True) is None
    assert window_shift(list(values), worse_is_higher=False) is not None


def test_too_short_or_bad_values_give_nothing() -> None:
    assert window_shift([1.0] * 10) is None
    assert window_shift([1.0] * 30 + [0.0] * 10) is None


@pytest.mark.parametrize("family", ["heavy", "bimodal", "bimodal_blocks", "spikes"])
def test_pure_noise_opens_nothing(family: str) -> None:
    for seed in range(40):
        rng = np.random.default_rng(1000 + seed)
        n = 120
        if family == "heavy":
            values = 100.0 * np.exp(0.1 * rng.standard_t(2, n).clip(-20, 20))
        elif family == "bimodal":
            values = np.where(rng.random(n) < 0.5, 100.0, 140.0) * np.exp(rng.normal(0, 0.02, n))
        elif family == "bimodal_blocks":
            # the runner pool switches mode every 1-6 runs: modes come in short blocks
            lengths = rng.integers(1, 7, n)
            modes = np.repeat(np.arange(n) % 2 == 0, lengths)[:n]
            values = np.where(modes, 100.0, 140.0) * np.exp(rng.normal(0, 0.02, n))
        else:
            values = _noisy(rng, n, 0.05) * np.where(rng.random(n) < 0.05, 3.0, 1.0)
        for end in range(40, n + 1):
            assert window_shift(list(values[:end])) is None, (family, seed, end)


def test_the_window_reads_no_further_back_than_a_decision() -> None:
    from benchdash.regression import detector, window

    # the largest window, its guard's stretch and the new run fit in the runs the ingest reads
    assert max(window.WINDOWS) + window.HISTORY <= detector.HISTORY_NEEDED + 1
    assert max(window.WINDOWS) + window.BASELINE <= detector.HISTORY_NEEDED + 1


def test_noisy_series_open_window_steps_named_at_their_start() -> None:
    from benchdash.regression import detector
    from benchdash.regression.engine import Thresholds
    from benchdash.regression.model import Point
    from benchdash.regression.replay import replay_decisions

    found = by_window = 0
    for seed in range(20):
        values = _noisy(np.random.default_rng(seed), 75, 0.2)
        values[60:] *= 1.5  # 20 % noise, a sustained 50 % step at run 60
        pts = [Point(i, float(v), f"c{i}") for i, v in enumerate(values)]
        opened = list(replay_decisions(pts, direction="lower_is_better", thresholds=Thresholds()))
        assert all(o.alarm_index >= 60 for o in opened), "the noise before opened nothing"
        found += any(58 <= o.index <= 65 for o in opened)
        for o in (o for o in opened if o.decision.confirmed_by == "window"):
            by_window += 1
            assert o.decision.level == "fail" and o.decision.last_good_run_id == o.index - 1
            assert o.decision.warn_floor == 5.0  # resolves once back within the configured warn
            a = detector.assess(
                pts[: o.alarm_index],
                pts[o.alarm_index],
                direction="lower_is_better",
                thresholds=Thresholds(),
            )
            assert a.verdict.suspected and a.verdict.gate == "window"
            assert a.verdict.window is not None
            assert a.verdict.window.text().startswith("Suspected from ")
    assert found >= 13 and by_window >= 4  # ~80 % of such steps (bench/step_curve.py)


def test_quiet_series_keep_the_single_run_path(monkeypatch: pytest.MonkeyPatch) -> None:
    from benchdash.regression import detector, window
    from benchdash.regression.engine import Thresholds
    from benchdash.regression.model import Point

    rng = np.random.default_rng(5)
    values = _noisy(rng, 90, 0.01)
    values[50:] *= 1.04  # sustained, clear to a rank test, under the configured 5 %
    assert window_shift(list(values[:60])) is not None  # the window alone would see it
    pts = [Point(i, float(v), f"c{i}") for i, v in enumerate(values)]
    t = Thresholds()
    with_window = [
        detector.assess(pts[:i], pts[i], direction="lower_is_better", thresholds=t)
        for i in range(len(pts))
    ]
    monkeypatch.setattr(window, "window_shift", lambda *a, **k: None)
    without = [
        detector.assess(pts[:i], pts[i], direction="lower_is_better", thresholds=t)
        for i in range(len(pts))
    ]
    assert with_window == without  # a quiet series never consults the window
