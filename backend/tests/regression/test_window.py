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
