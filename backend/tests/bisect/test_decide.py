"""The bisection's state machine and its verdicts, without agents or a database."""

from __future__ import annotations

import math
import random

import pytest

from benchdash.bisect.decide import Next, Step, Verdict, classify, next_action


def simulate(n: int, k: int, broken: frozenset[int] = frozenset()) -> tuple[Next, list[Step]]:
    """Bisect `n` candidates whose first bad one is `k`; `broken` ones fail to build."""
    steps: list[Step] = []
    while True:
        action = next_action(n, steps)
        if action.kind != "test":
            return action, steps
        assert action.index is not None
        i = action.index
        v = Verdict.SKIPPED if i in broken else (Verdict.BAD if i >= k else Verdict.GOOD)
        steps.append(Step(index=i, verdict=v))


@pytest.mark.parametrize("n", [1, 2, 3, 15, 16, 100])
def test_every_first_bad_commit_is_found_in_ceil_log2_n_steps(n: int) -> None:
    for k in range(n):
        action, steps = simulate(n, k)
        assert (action.kind, action.index) == ("found", k)
        assert len(steps) <= math.ceil(math.log2(n)) if n > 1 else not steps


def test_one_candidate_is_the_bad_end_itself_without_a_step() -> None:
    assert next_action(1, []) == Next(kind="found", index=0, low=-1, high=0)


def test_a_broken_build_is_skipped_to_the_nearest_untested_commit() -> None:
    first = next_action(15, [])
    assert first.index == 6
    after = next_action(15, [Step(index=6, verdict=Verdict.SKIPPED)])
    assert after.index == 7  # the later neighbour first, like git bisect skip moving away
    for k in (2, 5, 9, 14):
        action, steps = simulate(15, k, broken=frozenset({6}))
        assert (action.kind, action.index) == ("found", k)
        assert [s.index for s in steps if s.verdict is Verdict.SKIPPED] == [6]
        assert len(steps) <= 5


def test_only_skipped_commits_left_answers_the_range() -> None:
    action, steps = simulate(4, 2, broken=frozenset({1}))
    assert action.kind == "cannot"
    assert "build failed" in (action.reason or "")
    assert (action.low, action.high) == (0, 2)  # the first bad one is 1 or 2
    assert [s.index for s in steps] == [1, 2, 0]


def test_ambiguous_is_measured_once_more_then_stops() -> None:
    once = [Step(index=6, verdict=Verdict.AMBIGUOUS)]
    assert next_action(15, once) == Next(kind="test", index=6, low=-1, high=14)
    twice = [*once, Step(index=6, verdict=Verdict.AMBIGUOUS)]
    assert next_action(15, twice).kind == "cannot"
    resolved = [*once, Step(index=6, verdict=Verdict.GOOD)]
    assert next_action(15, resolved).kind == "test"


def test_a_failed_run_is_retried_once_then_the_bisection_fails_naming_it() -> None:
    once = [Step(index=3, verdict=Verdict.GOOD), Step(index=9, verdict=Verdict.FAILED)]
    assert next_action(15, once).index == 9
    twice = [*once, Step(index=9, verdict=Verdict.FAILED)]
    assert next_action(15, twice) == Next(kind="failed", index=9, low=3, high=14)


def test_contradicting_verdicts_stop() -> None:
    steps = [Step(index=8, verdict=Verdict.GOOD), Step(index=4, verdict=Verdict.BAD)]
    assert next_action(15, steps).kind == "cannot"


def test_an_empty_range_cannot_be_bisected() -> None:
    assert next_action(0, []).kind == "cannot"


def _samples(rng: random.Random, level: float, noise: float, n: int = 5) -> list[float]:
    return [level * (1 + rng.uniform(-noise, noise)) for _ in range(n)]


def test_classify_a_30_percent_step_against_both_ends() -> None:
    rng = random.Random(7)
    good, bad = _samples(rng, 100, 0.02), _samples(rng, 130, 0.02)
    assert classify(good, bad, _samples(rng, 129, 0.02)).verdict is Verdict.BAD
    evidence = classify(good, bad, _samples(rng, 101, 0.02))
    assert evidence.verdict is Verdict.GOOD
    assert evidence.p_bad is not None and evidence.p_bad < 0.05
    assert evidence.good_median < evidence.median < evidence.bad_median


def test_classify_inside_the_noise_is_ambiguous() -> None:
    rng = random.Random(3)
    good, bad = _samples(rng, 100, 0.5), _samples(rng, 103, 0.5)
    assert classify(good, bad, _samples(rng, 103, 0.5)).verdict is Verdict.AMBIGUOUS
    # a midpoint halfway between two ends that differ is neither
    good, bad = _samples(rng, 100, 0.01), _samples(rng, 130, 0.01)
    assert classify(good, bad, _samples(rng, 115, 0.01)).verdict is Verdict.AMBIGUOUS


def test_classify_with_few_samples_needs_no_overlap() -> None:
    assert classify([1.0, 1.1], [2.0, 2.1], [2.05, 1.95]).verdict is Verdict.BAD
    assert classify([1.0, 1.1], [2.0, 2.1], [1.0, 1.9]).verdict is Verdict.AMBIGUOUS
    with pytest.raises(ValueError):
        classify([], [1.0], [1.0])
