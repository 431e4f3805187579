"""A pull request's verdict, decided on its own run against its base branch's recent runs.

A branch with a base (a pull or merge request) is not made to wait for "the next runs staying
worse", which a pull request with two uploads never reaches. Each series of the run is judged
at once on the evidence it has:

- **before**: the samples of the base branch's last BASE_RUNS runs of the same series (a run
  without samples counts as its value), **after**: this run's samples;
- the change is sized as a confirmed step is (`grade.step_size`: the Hodges–Lehmann shift with
  its 95 % interval, positive = worse) and read against the configured thresholds:
  - **fail**: `grade.grade` says FAIL (the size exceeds the fail threshold and the interval's
    lower end the warn threshold) and the size exceeds twice the run-to-run variation of the
    base's run values (as a single-run floor would: samples of one run share its machine);
  - **warn**: the interval's lower end exceeds the warn threshold, not a fail;
  - **uncertain**: neither, and the interval's upper end reaches past the fail threshold: a
    fail cannot be ruled out, and the reason says how many samples would tell;
  - **ok**: the change is surely below the fail threshold (improvements included);
  - **no_base**: the base has fewer than MIN_BASE_RUNS runs of the series: nothing to compare.

The run's verdict is "fail" if any series fails, "neutral" if any is warn or uncertain, else
"success".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median

from benchdash.regression.engine import Level, Thresholds
from benchdash.regression.grade import Size, grade, step_size
from benchdash.regression.model import Point

BASE_RUNS = 10  # the base's newest runs of a series a pull request is compared with
MIN_BASE_RUNS = 3
MAX_SAMPLES_ADVISED = 100

FAIL, WARN, UNCERTAIN, OK, NO_BASE = "fail", "warn", "uncertain", "ok", "no_base"
VERDICT_FAIL, VERDICT_NEUTRAL, VERDICT_SUCCESS = "fail", "neutral", "success"


@dataclass(frozen=True)
class SeriesCall:
    """One series' outcome (FAIL … NO_BASE) with its evidence and the reason in words."""

    outcome: str
    size: Size | None
    samples: int
    noise: float  # % relative spread of the samples (the larger of this run's and the base's)
    base_runs: tuple[int, ...]  # run ids, oldest first
    reason: str


def _spread(values: Sequence[float]) -> float:
    """Relative scaled MAD in % (0 for fewer than 2 values or a zero median)."""
    if len(values) < 2:
        return 0.0
    mid = median(values)
    if mid == 0:
        return 0.0
    return median(abs(v - mid) for v in values) * 1.4826 / abs(mid) * 100


def _words(pct: float) -> str:
    """'12 % worse' / '3 % better' (the sign is 'positive = worse')."""
    return f"{abs(pct):.0f} % {'worse' if pct >= 0 else 'better'}"


def _advice(size: Size, thresholds: Thresholds, n: int, m: int) -> str:
    """How many samples of this run would tell, from the interval's half-width ∝ √(1/n + 1/m)."""
    half = (size.high - size.low) / 2
    need = max(thresholds.fail - size.estimate, size.estimate - thresholds.warn)
    if not math.isfinite(half) or half <= 0 or need <= 0:
        return "repeat the benchmark for more samples"
    inv = (need / half) ** 2 * (1 / n + 1 / m) - 1 / n
    if inv <= 0 or 1 / inv > MAX_SAMPLES_ADVISED:
        return f"the base's {n} samples are too noisy to tell: repeat the benchmark on both sides"
    return f"repeat the benchmark for {max(m + 1, math.ceil(1 / inv))} samples"


def judge_series(
    base: Sequence[Point],
    samples: Sequence[float],
    value: float,
    *,
    direction: str,
    thresholds: Thresholds,
) -> SeriesCall:
    """The outcome of one series of a pull request's run against its base's recent points."""
    recent = list(base)[-BASE_RUNS:]
    runs = tuple(p.run_id for p in recent)
    after = list(samples) or [value]
    noise_now = _spread(after)
    if len(recent) < MIN_BASE_RUNS:
        return SeriesCall(
            NO_BASE,
            None,
            len(after),
            noise_now,
            runs,
            f"the base has {len(recent)} run(s) of this series: nothing to compare yet",
        )
    before = [x for p in recent for x in (p.samples or (p.value,))]
    size = step_size(before, after, direction=direction)
    values = [p.value for p in recent]
    run_var = _spread(values)
    noise = max(noise_now, _spread(before))
    span = f"{size.low:+.1f} … {size.high:+.1f} %"
    said = f"{_words(size.estimate)} ({span}) than the base's last {len(recent)} runs"
    if grade(size, thresholds) is Level.FAIL:
        if size.estimate > 2 * run_var:
            return SeriesCall(
                FAIL, size, len(after), noise, runs, f"{said}: past the fail threshold"
            )
        why = (
            f"{said}, but the base's runs vary by {run_var:.0f} % between them: one run cannot tell"
        )
        return SeriesCall(UNCERTAIN, size, len(after), noise, runs, why)
    if size.low > thresholds.warn:
        return SeriesCall(WARN, size, len(after), noise, runs, f"{said}: past the warn threshold")
    if size.high > thresholds.fail:
        why = (
            f"{len(after)} samples, noise {noise:.0f} %: not enough to tell a "
            f"{_words(size.estimate)} change ({span}); "
            f"{_advice(size, thresholds, len(before), len(after))}"
        )
        return SeriesCall(UNCERTAIN, size, len(after), noise, runs, why)
    return SeriesCall(OK, size, len(after), noise, runs, f"{said}: within the thresholds")


def verdict(outcomes: Sequence[str]) -> str:
    """The run's verdict from its series' outcomes."""
    if FAIL in outcomes:
        return VERDICT_FAIL
    if WARN in outcomes or UNCERTAIN in outcomes:
        return VERDICT_NEUTRAL
    return VERDICT_SUCCESS
