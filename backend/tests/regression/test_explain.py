"""Verdict sentences."""

from benchdash.regression.engine import Baseline, Level, Thresholds
from benchdash.regression.explain import describe_runs, explain_verdict, format_change
from benchdash.regression.model import Floors, UploadVerdict


def test_describe_runs() -> None:
    assert describe_runs([45, 41, 42, 43, 44], "median") == "the median of runs #41–#45"
    assert describe_runs([3, 9], "median") == "the median of runs #3, #9"
    assert describe_runs([7], "pinned") == "the pinned baseline run #7"


def test_a_zero_baseline_still_says_which_way() -> None:
    floors = Floors(Thresholds(5, 10), 1.0, 20, 5.0, 10.0)
    up = UploadVerdict(
        Level.IMPROVED,
        False,
        Baseline(0.0, (1, 2), (), "median"),
        None,
        None,
        None,
        "floor",
        floors,
    )
    text = explain_verdict(up, unit="req/s", direction="higher_is_better")
    assert text.startswith("faster than the median of runs #1–#2, which was 0")


def test_the_two_stage_sentences_name_the_floor_and_the_stage() -> None:
    from benchdash.regression import detector
    from benchdash.regression.engine import Thresholds
    from benchdash.regression.explain import explain_alert, explain_verdict
    from benchdash.regression.model import Point

    past = [Point(i, 100.0 + (i % 3) * 4 + i / 100, f"c{i:02d}") for i in range(30)]
    t = Thresholds(5, 10)
    v = detector.assess(past, Point(30, 120.0), direction="lower_is_better", thresholds=t)
    text = explain_verdict(v.verdict, unit="ns", direction="lower_is_better")
    assert text.startswith("15.2 % slower than the median of runs #0–#29;")  # 120 / 104.145
    # run-to-run changes +4 %, +3.8 %, −7.4 %: upper quartile 7.4 %, floors 14.8 % and 19.8 %
    assert "warn floor 14.8 %, fail floor 19.8 % (2 × the series' 7.4 % run-to-run" in text
    assert "Suspected: an alert opens only once the step is confirmed" in text
    steps = [*past, Point(30, 120.0, "c30"), Point(31, 121.0, "c31")]
    a = detector.assess(steps, Point(32, 120.5, "c32"), direction="lower_is_better", thresholds=t)
    assert explain_alert(a.decision, unit="ns", direction="lower_is_better") == (
        "15.7 % slower from run #30 (c30) on; last good run #29 (c29): confirmed by a "
        "significant change point (p = 1.8e-04); warn floor 14.8 %."  # 1 / C(33, 3)
    )
    short = detector.assess(past[:3], Point(3, 150.0), direction="lower_is_better", thresholds=t)
    assert explain_verdict(short.verdict, unit="ns", direction="lower_is_better").endswith(
        "learning, not judged yet: 3 of the 10 runs needed to measure the noise."
    )


def test_format_change_speaks_in_the_metrics_own_direction() -> None:
    assert format_change(11.783, "higher_is_better", "req/s") == "−11.8 % req/s · worse"
    assert format_change(11.783, "lower_is_better", "ms") == "+11.8 % ms · worse"
    assert format_change(-3.0, "lower_is_better") == "−3.0 % · better"
    assert format_change(-4, "higher_is_better") == "+4.0 % · better"
    assert format_change(0.01, "higher_is_better") == "±0.0 %"
    assert format_change(None, "higher_is_better") == "—"
    assert format_change(float("nan"), "lower_is_better") == "—"
