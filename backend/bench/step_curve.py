"""The sensitivity curve of issue 44: sustained steps found, by noise and step size.

    .venv/bin/python backend/bench/detection.py --curve [--half test] [--quick] [--jobs 2]

The whole detector (the `replay` code, CI-fed, default 5 %/10 % thresholds) is fed runs one
by one. A step toward worse is injected at run k (lower is better: values × (1 + step) from k
on; higher is better: ÷ (1 + step)); it is **found** when an alert opens within 15 runs of
it (its alarm run at most k + 14) naming a first bad run within k − 2 … k + 5; **runs** is
alarm run − k + 1. Noise is per run: σ of the log values, estimated from consecutive
differences (1.4826 × MAD of Δlog / √2, so a step barely moves it); series are put in the
nearest of the levels 1, 5, 10, 20, 30 %, and "noisy" means ≥ 8 %.

- synthetic: log-normal noise at each level, 60 runs, then the step;
- real: eval-dev's series (`evaldev.py`, the chosen half) with ≥ 45 runs, DRAWS injections
  each at a random run k in 30 … n − 15 (seeded by the series' id), and the same series
  without injection scored by eval-dev's own code: alert events per 100 runs and the
  transient share (a false-alarm proxy).
"""

from __future__ import annotations

import hashlib
import math
import statistics
from collections import defaultdict
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import evaldev
import numpy as np

from benchdash.regression.engine import LOWER, Thresholds
from benchdash.regression.model import Point
from benchdash.regression.replay import replay

NOISES = (0.01, 0.05, 0.10, 0.20, 0.30)
STEPS = (0.05, 0.10, 0.20, 0.50)
WITHIN, EARLY, LATE = 15, 2, 5
NOISY = 0.08
BEFORE = 60
DRAWS = 2
MIN_RUNS = 45


def noise(values: Sequence[float]) -> float:
    """Per-run noise (σ of log values) from consecutive differences, robust to a step."""
    arr = np.asarray(values, dtype=float)
    d = np.diff(np.log(arr[arr > 0]))  # zeros (an allocation count) carry no relative noise
    if d.size < 2:
        return 0.0
    return float(1.4826 * np.median(np.abs(d - np.median(d))) / math.sqrt(2))


def bucket(sigma: float) -> float:
    """The nearest noise level on a log scale."""
    return min(NOISES, key=lambda n: abs(math.log(max(sigma, 1e-6) / n)))


def found_after(values: Sequence[float], direction: str, k: int) -> int | None:
    """Runs from the injected step at k to the alert that names it, or None."""
    pts = [Point(i, v, f"c{i}") for i, v in enumerate(values[: k + WITHIN])]
    for a in replay(pts, direction=direction, thresholds=Thresholds()):
        if k <= a["alarm_index"] < k + WITHIN and k - EARLY <= a["index"] <= k + LATE:
            return int(a["alarm_index"]) - k + 1
    return None


def inject(values: Sequence[float], direction: str, k: int, step: float) -> list[float]:
    """The series with a step toward worse from run k on."""
    f = 1 + step if direction == LOWER else 1 / (1 + step)
    return [v * f if i >= k else v for i, v in enumerate(values)]


def _synthetic(job: tuple[float, float, int]) -> tuple[float, float, int | None, int]:
    cv, step, seed = job
    rng = np.random.default_rng(seed)
    values = list(100.0 * np.exp(rng.normal(0.0, cv, BEFORE + WITHIN)))
    pts = [Point(i, v, f"c{i}") for i, v in enumerate(values)]
    false = len(replay(pts, direction=LOWER, thresholds=Thresholds()))  # the same, no step
    return cv, step, found_after(inject(values, LOWER, BEFORE, step), LOWER, BEFORE), false


def _real(case: dict[str, Any]) -> list[tuple[float, float, int | None]]:
    values = [p["value"] for p in case["points"] if p["value"] is not None]
    sigma = noise(values)
    seed = int(hashlib.sha1(case["id"].encode()).hexdigest()[:8], 16)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(DRAWS):
        k = int(rng.integers(30, len(values) - WITHIN + 1))
        for step in STEPS:
            got = found_after(inject(values, case["direction"], k, step), case["direction"], k)
            out.append((sigma, step, got))
    return out


def _plain(case: dict[str, Any]) -> list[tuple[int, str]]:
    return [(i, level) for i, level, _ in evaldev.ours(case)]


def _single_run_only(case: dict[str, Any]) -> list[tuple[int, str]]:
    """The detector without its window test (the single-run floors alone), for comparison."""
    from benchdash.regression import window

    saved, window.WINDOWS = window.WINDOWS, ()
    try:
        return _plain(case)
    finally:
        window.WINDOWS = saved


def _cell(runs: list[int | None], within: int = WITHIN) -> str:
    got = [r for r in runs if r is not None and r <= within]
    med = f"{statistics.median(got):g}" if got else "–"
    return f"{100 * len(got) / len(runs):.0f} % ({med})" if runs else "–"


def table(
    rows: dict[str, list[tuple[float, int | None]]], label: str, extra: dict[str, str] | None = None
) -> None:
    """One row per noise group: share found within 15 runs (median runs to the alert)."""
    more = " | no-step alerts /100 runs" if extra else ""
    print(f"| {label} | injections | " + " | ".join(f"+{s:.0%} step" for s in STEPS) + f"{more} |")
    print("|" + "---|" * (len(STEPS) + 2 + bool(extra)))
    for name, got in rows.items():
        by: dict[float, list[int | None]] = defaultdict(list)
        for step, r in got:
            by[step].append(r)
        n = len(by[STEPS[0]])
        tail = f" | {extra[name]}" if extra else ""
        print(f"| {name} | {n} | " + " | ".join(_cell(by[s]) for s in STEPS) + f"{tail} |")


def synthetic(jobs: int, series: int) -> None:
    """The synthetic curve."""
    work = [
        (cv, s, 1000 * i + int(cv * 100) * 10 + int(s * 100))
        for cv in NOISES
        for s in STEPS
        for i in range(series)
    ]
    with Pool(jobs) as pool:
        res = pool.map(_synthetic, work, chunksize=4)
    rows: dict[str, list[tuple[float, int | None]]] = defaultdict(list)
    false: dict[str, int] = defaultdict(int)
    for cv, step, r, f in res:
        rows[f"{cv:.0%}"].append((step, r))
        false[f"{cv:.0%}"] += f
    runs = len(STEPS) * series * (BEFORE + WITHIN)
    print(f"\n### Synthetic: log-normal noise, {BEFORE} runs, then the step ({series} each)\n")
    table(rows, "noise per run", {k: f"{100 * v / runs:.2f}" for k, v in false.items()})


def real(dev: Path, half: str, jobs: int, quick: bool, show: bool = True) -> dict[str, float]:
    """The real-history curve of one half and its false-alert rate; the target figures."""
    sd = evaldev.scorer(dev)
    cases = [c for c in evaldev.load(dev) if c["half"] == half]
    long = [c for c in cases if sum(p["value"] is not None for p in c["points"]) >= MIN_RUNS]
    if quick:
        long = long[::6]
    with Pool(jobs) as pool:
        found = pool.map(_real, long, chunksize=2)
        plain = pool.map(_plain, cases, chunksize=4)
        single = pool.map(_single_run_only, cases, chunksize=4) if show else plain
    rows: dict[str, list[tuple[float, int | None]]] = defaultdict(list)
    groups: dict[str, list[tuple[float, int | None]]] = defaultdict(list)
    for res in found:
        for sigma, step, r in res:
            rows[f"~{bucket(sigma):.0%}"].append((step, r))
            groups["noisy (≥ 8 %)" if sigma >= NOISY else "quiet (< 8 %)"].append((step, r))
    t = evaldev.tallies(sd, cases, plain)[half]
    ev, tra = 100 * t["ev"] / t["pts"], 100 * t["tra"] / max(1, t["sus"] + t["tra"])
    if show:
        _show(half, len(long), rows, groups)
        print(
            f"\nWithout injection ({len(cases)} series, {t['pts']} runs): {ev:.2f} alert "
            f"events per 100 runs, transient share {tra:.1f} % ({t['tra']} of "
            f"{t['sus'] + t['tra']})"
        )
        s1 = evaldev.tallies(sd, cases, single)[half]
        print(
            "The same series, the detector without the window test: "
            f"{100 * s1['ev'] / s1['pts']:.2f} alert events per 100 runs, transient share "
            f"{100 * s1['tra'] / max(1, s1['sus'] + s1['tra']):.1f} % ({s1['tra']} of "
            f"{s1['sus'] + s1['tra']})"
        )

    def share(group: str, step: float, within: int) -> float:
        got = [r for s, r in groups[group] if s == step]
        return 100 * sum(r is not None and r <= within for r in got) / max(1, len(got))

    return {
        "noisy 20 % within 15": share("noisy (≥ 8 %)", 0.20, WITHIN),
        "noisy 50 % within 15": share("noisy (≥ 8 %)", 0.50, WITHIN),
        "quiet 10 % within 5": share("quiet (< 8 %)", 0.10, 5),
        "events /100 runs": ev,
        "transient share %": tra,
    }


def _show(half: str, n: int, rows: dict[str, Any], groups: dict[str, Any]) -> None:
    print(f"\n### eval-dev {half} half: {n} series of ≥ {MIN_RUNS} runs, {DRAWS} injections each\n")
    table(dict(sorted(rows.items(), key=lambda kv: float(kv[0][1:-1]))), "noise per run")
    print()
    table(groups, "group")


def main(dev: Path | None, half: str, jobs: int, quick: bool) -> int:
    """Print the curve: synthetic, then the real half (when eval-dev is there)."""
    synthetic(jobs, 8 if quick else 40)
    if dev is None:
        print("\n(eval-dev not found: no real-history table)")
        return 0
    got = real(dev, half, jobs, quick)
    targets = {"noisy 20 % within 15": 90, "noisy 50 % within 15": 98, "quiet 10 % within 5": 95}
    print("\n| target | achieved | goal |\n|---|---|---|")
    for name, value in got.items():
        goal = (
            f"≥ {targets[name]} %"
            if name in targets
            else ("≤ 0.3" if name.startswith("events") else "≤ 10 %")
        )
        print(f"| {name} | {value:.2f} | {goal} |")
    return 0
