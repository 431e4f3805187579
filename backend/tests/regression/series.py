"""Seeded noisy series for the detector tests (numpy only, no hypothesis)."""

from __future__ import annotations

import numpy as np

from benchdash.regression.model import Point


def noisy(
    n: int,
    *,
    seed: int,
    sigma: float = 0.01,
    level: float = 100.0,
    step_at: int | None = None,
    step: float = 0.0,
    spike_at: int | None = None,
) -> list[float]:
    """Gaussian noise around `level` (σ relative), optionally a lasting step or one spike."""
    rng = np.random.default_rng(seed)
    factor = np.ones(n)
    if step_at is not None:
        factor[step_at:] += step
    if spike_at is not None:
        factor[spike_at] += 0.3
    return [float(x) for x in level * factor * (1 + rng.normal(0, sigma, n))]


def points(values: list[float]) -> list[Point]:
    """Points with run id = index and commit 'c<index>'."""
    return [Point(i, v, f"c{i}") for i, v in enumerate(values)]
