"""Verdict sentences."""

from benchdash.regression.explain import describe_runs, explain


def test_describe_runs() -> None:
    assert describe_runs([45, 41, 42, 43, 44], "median") == "the median of runs #41–#45"
    assert describe_runs([3, 9], "median") == "the median of runs #3, #9"
    assert describe_runs([7], "pinned") == "the pinned baseline run #7"


def test_fail_sentence_reads_like_the_issue() -> None:
    text = explain(
        level="fail",
        change_pct=12.3,
        p_value=0.002,
        z_score=None,
        gate="welch",
        warn=5,
        fail=10,
        baseline_run_ids=[41, 42, 43, 44, 45],
        baseline_source="median",
        unit="ns",
        direction="lower_is_better",
    )
    assert text == "12.3 % slower than the median of runs #41–#45 (p = 0.002); fail threshold 10 %."


def test_noisy_and_improved_sentences() -> None:
    noisy = explain(
        level="noisy",
        change_pct=12.0,
        p_value=0.21,
        z_score=None,
        gate="welch",
        warn=5,
        fail=10,
        baseline_run_ids=[1],
        baseline_source="median",
        unit="%",
        direction="higher_is_better",
    )
    assert "not significant" in noisy and "p = 0.21" in noisy and "worse" in noisy
    better = explain(
        level="improved",
        change_pct=-8.0,
        p_value=0.01,
        z_score=None,
        gate="welch",
        warn=5,
        fail=10,
        baseline_run_ids=[1, 2],
        baseline_source="median",
        unit="req/s",
        direction="higher_is_better",
    )
    assert better.startswith("8.0 % faster than the median of runs #1–#2")
