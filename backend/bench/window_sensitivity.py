"""Synthetic sensitivity of the windowed shift test alone (issue 44, not yet the detector).

Usage: `python -m bench.window_sensitivity` from backend/. Log-normal series of 60 runs at
noise CV, then a sustained step toward worse; the test is asked after every run from the
step on. Found = suspected within 25 runs with the first bad run within -2..+5 of the step;
runs = median runs from the step to the first suspicion. Pure noise: suspicions per 100
runs on the same noise levels without a step.
"""

from __future__ import annotations

import numpy as np

from benchdash.regression.window import window_shift

NOISES = (0.01, 0.05, 0.10, 0.20, 0.30)
STEPS = (0.05, 0.10, 0.20, 0.50)
SERIES = 40
BEFORE, AFTER = 60, 25


def _one(rng: np.random.Generator, cv: float, step: float) -> int | None:
    values = 100.0 * np.exp(rng.normal(0.0, cv, BEFORE + AFTER))
    values[BEFORE:] *= 1.0 + step
    for end in range(BEFORE + 1, BEFORE + AFTER + 1):
        hit = window_shift(list(values[:end]))
        if hit is not None:
            return end - BEFORE if -2 <= hit.first - BEFORE <= 5 else None
    return None


def _false_rate(cv: float) -> float:
    rng = np.random.default_rng(7)
    hits = runs = 0
    for _ in range(SERIES):
        values = 100.0 * np.exp(rng.normal(0.0, cv, 120))
        for end in range(45, 121):
            runs += 1
            hits += window_shift(list(values[:end])) is not None
    return 100.0 * hits / runs


def main() -> None:
    print("noise | " + " | ".join(f"+{s * 100:.0f} % found (runs)" for s in STEPS) + " | false/100")
    for cv in NOISES:
        cells = []
        for step in STEPS:
            rng = np.random.default_rng(int(cv * 1000 + step * 100))
            got = [r for r in (_one(rng, cv, step) for _ in range(SERIES)) if r is not None]
            med = f"{np.median(got):.0f}" if got else "-"
            cells.append(f"{100 * len(got) / SERIES:.0f} % ({med})")
        print(f"{cv * 100:.0f} % | " + " | ".join(cells) + f" | {_false_rate(cv):.2f}")


if __name__ == "__main__":
    main()
