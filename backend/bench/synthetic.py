"""Synthetic benchmark series with known change points, for `detection.py`.

Every series sits at a random scale (1e-3 to 1e6); half are lower-is-better, half
higher-is-better. Levels and noise are written as "worse by x" (x < 0: better), so a 12 %
worse step is a change of 12 % as the product measures it in both directions. Noise models:

- gaussian: independent N(0, σ) run-to-run noise;
- heavy: Student t with 3 degrees of freedom, scaled to the same interquartile range;
- bimodal: gaussian, plus one run in four landing in a second mode 4σ worse;
- drifting: gaussian plus a slow random walk of the level (σ/4 per run);
- quantised: gaussian, rounded to a grid of 2σ (a coarse timer);
- samples: 10 samples per run, within-run spread σ/2, plus a run offset of σ (the run value
  is the median of its samples).

σ is 0.5 %, 1 % or 2 % of the level. Scenarios: no change; one step of 3–30 % worse or
better; a single-run spike 30 % worse; a 12–30 % worse step that recovers 15–25 runs later.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

NOISE_MODELS = ("gaussian", "heavy", "bimodal", "drifting", "quantised", "samples")
SIGMAS = (0.005, 0.01, 0.02)
STEP_SIZES = (0.03, 0.05, 0.08, 0.12, 0.20, 0.30)
LENGTH = 120
T3_IQR = 1.5297  # interquartile range of Student's t with 3 d.f.; N(0, 1) has 1.349


@dataclass
class Series:
    """One synthetic series and its truth."""

    id: str
    direction: str
    noise: str
    sigma: float
    scenario: str
    values: list[float]
    samples: list[list[float]]
    worse_steps: list[tuple[int, float]] = field(default_factory=list)  # (index, size)
    rerun: random.Random = field(default_factory=random.Random)
    levels: list[float] = field(default_factory=list)

    scale: float = 1.0

    def draw(self, index: int) -> tuple[float, list[float]]:
        """A fresh measurement of run `index` (a re-run of the same ref)."""
        sign = -1 if self.direction == "higher_is_better" else 1
        v, row = _measure(self.levels[index], self.noise, self.sigma, sign, self.rerun)
        return v * self.scale, [x * self.scale for x in row]


def _noise(kind: str, sigma: float, rng: random.Random) -> float:
    """Run noise as a worse-by fraction."""
    if kind == "heavy":
        t = rng.gauss(0, 1) / math.sqrt(sum(rng.gauss(0, 1) ** 2 for _ in range(3)) / 3)
        return t * sigma * 1.349 / T3_IQR
    x = rng.gauss(0, sigma)
    if kind == "bimodal" and rng.random() < 0.25:
        x += 4 * sigma
    return x


def _measure(
    worse: float, kind: str, sigma: float, sign: int, rng: random.Random
) -> tuple[float, list[float]]:
    """A run value at level 1 + sign·worse (sign −1 for higher-is-better), and its samples."""
    if kind == "samples":
        offset = rng.gauss(0, sigma)
        row = sorted(1 + sign * (worse + offset + rng.gauss(0, sigma / 2)) for _ in range(10))
        return (row[4] + row[5]) / 2, row
    value = 1 + sign * (worse + _noise(kind, sigma, rng))
    if kind == "quantised":
        value = round(value / (2 * sigma)) * 2 * sigma
    return value, []


def _levels(scenario: str, size: float, rng: random.Random) -> tuple[list[float], list[int]]:
    """Worse-by fraction of each run's true level, and the worse steps' indices."""
    levels = [0.0] * LENGTH
    at = rng.randrange(40, 90)
    if scenario == "worse":
        levels[at:] = [size] * (LENGTH - at)
        return levels, [at]
    if scenario == "better":
        levels[at:] = [-size] * (LENGTH - at)
    elif scenario == "recovers":
        back = at + rng.randrange(15, 26)
        levels[at:back] = [size] * (back - at)
        return levels, [at]
    return levels, []


def make(
    noise: str, sigma: float, scenario: str, size: float, seed: int, higher: bool = False
) -> Series:
    """One series; `size` is the step (fraction) for worse/better/recovers scenarios."""
    rng = random.Random(f"{noise}/{sigma}/{scenario}/{size}/{seed}/{higher}")
    scale = 10 ** rng.uniform(-3, 6)
    sign = -1 if higher else 1
    levels, steps = _levels(scenario, size, rng)
    if noise == "drifting":
        walk = 0.0
        for i in range(LENGTH):
            walk += rng.gauss(0, sigma / 4)
            levels[i] += walk
    spike = rng.randrange(40, 90) if scenario == "spike" else -1
    values, samples = [], []
    for i, lv in enumerate(levels):  # a spike is one bad measurement, not a bad ref
        v, row = _measure(lv + (0.3 if i == spike else 0.0), noise, sigma, sign, rng)
        values.append(v * scale)
        samples.append([x * scale for x in row])
    return Series(
        id=f"{noise}/{sigma:g}/{scenario}/{size:g}/{seed}",
        direction="higher_is_better" if higher else "lower_is_better",
        noise=noise,
        sigma=sigma,
        scenario=scenario,
        values=values,
        samples=samples,
        worse_steps=[(i, size) for i in steps],
        rerun=random.Random(f"rerun/{noise}/{sigma}/{scenario}/{size}/{seed}/{higher}"),
        levels=levels,
        scale=scale,
    )


def dataset(seeds: int = 2) -> list[Series]:
    """The full synthetic set: every noise model × σ × scenario × size × seed."""
    out = []
    for noise in NOISE_MODELS:
        for sigma in SIGMAS:
            for seed in range(seeds):
                higher = seed % 2 == 1
                out.append(make(noise, sigma, "none", 0.0, seed, higher))
                out.append(make(noise, sigma, "spike", 0.3, seed, higher))
                for size in STEP_SIZES:
                    out.append(make(noise, sigma, "worse", size, seed, higher))
                    out.append(make(noise, sigma, "better", size, seed, higher))
                for size in (0.12, 0.20, 0.30):
                    out.append(make(noise, sigma, "recovers", size, seed, higher))
    return out
