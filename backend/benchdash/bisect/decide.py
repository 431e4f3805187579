"""The bisection's decisions, pure: no database, no web (unit-tested without agents).

The candidates are the commits of `good..bad` oldest first (`git rev-list --reverse`); the last
one is the bad end itself, known bad. Index -1 stands for the good end, known good. Each step
measures one candidate and gets a verdict; `next_action` reads the steps so far and says what to
do next: test a candidate, name the first bad one, or stop and say why.

- good at i: the first bad commit is after i; bad at i: it is i or before.
- skipped (its build failed): like `git bisect skip`, the nearest untested candidate to the
  midpoint is tried instead; if only skipped ones are left, the answer is the range.
- ambiguous (the midpoint is neither clearly good nor clearly bad): measured once more; a
  second ambiguous verdict at the same commit stops the bisection ("cannot bisect").
- failed (the run failed for another reason, e.g. its agent died): retried once; a second
  failure at the same commit fails the bisection, naming the step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from statistics import median


class Verdict(StrEnum):
    """What one step found at its commit (pending: its run has not ended)."""

    PENDING = "pending"
    GOOD = "good"
    BAD = "bad"
    AMBIGUOUS = "ambiguous"
    SKIPPED = "skipped"
    FAILED = "failed"
    CANCELLED = "cancelled"


@dataclass(frozen=True, kw_only=True)
class Step:
    """One measured candidate: its index among the candidates and its verdict."""

    index: int
    verdict: Verdict


@dataclass(frozen=True, kw_only=True)
class Next:
    """What to do: `test` a candidate, `found` the first bad one, or stop (`cannot`, `failed`)."""

    kind: str  # test | found | cannot | failed
    index: int | None = None
    reason: str | None = None
    low: int = -1  # the narrowed range: last known good index, first known bad index
    high: int = 0


def _bounds(n: int, steps: Sequence[Step]) -> tuple[int, int]:
    low, high = -1, n - 1
    for s in steps:
        if s.verdict is Verdict.GOOD:
            low = max(low, s.index)
        elif s.verdict is Verdict.BAD:
            high = min(high, s.index)
    return low, high


def next_action(n: int, steps: Sequence[Step]) -> Next:
    """The next step of a bisection over `n` candidates given the steps so far."""
    if n <= 0:
        return Next(kind="cannot", reason="the range holds no commit")
    low, high = _bounds(n, steps)
    if low >= high:
        return Next(kind="cannot", reason="the verdicts contradict each other", low=low, high=high)
    if steps and steps[-1].verdict in (Verdict.AMBIGUOUS, Verdict.FAILED):
        last = steps[-1]
        same = [s for s in steps if s.index == last.index and s.verdict is last.verdict]
        if len(same) == 1:
            return Next(kind="test", index=last.index, low=low, high=high)
        if last.verdict is Verdict.FAILED:
            return Next(kind="failed", index=last.index, low=low, high=high)
        return Next(kind="cannot", index=last.index, low=low, high=high)
    if high - low == 1:
        return Next(kind="found", index=high, low=low, high=high)
    skipped = {s.index for s in steps if s.verdict is Verdict.SKIPPED}
    untested = [i for i in range(low + 1, high) if i not in skipped]
    if not untested:
        return Next(
            kind="cannot",
            reason="only commits whose build failed are left between the good and the bad one",
            low=low,
            high=high,
        )
    mid = (low + high) // 2
    # The nearest untested candidate to the midpoint; on a tie the later one (git bisect skip
    # also moves away from a broken commit).
    pick = min(untested, key=lambda i: (abs(i - mid), -i))
    return Next(kind="test", index=pick, low=low, high=high)


MIN_RANK_SAMPLES = 5  # 5 against 5: the smallest Mann-Whitney p-value is 0.008
ALPHA = 0.01
SIDE = 2 / 3  # a midpoint within the middle third of the step is on neither side


@dataclass(frozen=True, kw_only=True)
class Evidence:
    """A midpoint's samples against both ends: medians, p-values and the verdict they give."""

    verdict: Verdict
    median: float
    good_median: float
    bad_median: float
    p_good: float | None
    p_bad: float | None
    why: str


def _p(a: Sequence[float], b: Sequence[float]) -> float | None:
    if min(len(a), len(b)) < MIN_RANK_SAMPLES:
        return None
    from scipy.stats import mannwhitneyu  # lazily, as the detector does

    return float(mannwhitneyu(a, b, alternative="two-sided").pvalue)


def _apart(a: Sequence[float], b: Sequence[float], p: float | None) -> bool:
    """Significantly different: the rank test when there are samples enough for it, else the
    two sets do not overlap at all."""
    if p is not None:
        return p < ALPHA
    return max(a) < min(b) or max(b) < min(a)


def _one_side(mid: Sequence[float], near: float, far: float) -> bool:
    """Every sample of the midpoint is nearer `near` than `far` (needed when too few samples
    for the rank test)."""
    return all(abs(x - near) < abs(x - far) for x in mid)


def _few_ok(mid: Sequence[float], near: float, far: float, p: float | None) -> bool:
    return p is not None or _one_side(mid, near, far)


def classify(good: Sequence[float], bad: Sequence[float], mid: Sequence[float]) -> Evidence:
    """Bad when the midpoint lies on the bad side of the step (past two thirds of it) and is
    significantly different from the good end; good the mirror; otherwise ambiguous."""
    if not good or not bad or not mid:
        raise ValueError("every side needs samples")
    mg, mb, mm = median(good), median(bad), median(mid)
    p_good, p_bad = _p(mid, good), _p(mid, bad)
    ends_p = _p(good, bad)
    # Where the midpoint lies between the ends: 0 at the good end's median, 1 at the bad end's.
    at = (mm - mg) / (mb - mg) if mb != mg else 0.5
    if not _apart(good, bad, ends_p):
        verdict, why = Verdict.AMBIGUOUS, "the good and the bad end were not told apart"
    elif at > SIDE and _apart(mid, good, p_good) and _few_ok(mid, mb, mg, p_good):
        verdict, why = Verdict.BAD, "the midpoint was on the bad side, unlike the good end"
    elif at < 1 - SIDE and _apart(mid, bad, p_bad) and _few_ok(mid, mg, mb, p_bad):
        verdict, why = Verdict.GOOD, "the midpoint was on the good side, unlike the bad end"
    else:
        verdict, why = Verdict.AMBIGUOUS, "the midpoint was on neither side of the step"
    return Evidence(
        verdict=verdict,
        median=mm,
        good_median=mg,
        bad_median=mb,
        p_good=p_good,
        p_bad=p_bad,
        why=why,
    )
