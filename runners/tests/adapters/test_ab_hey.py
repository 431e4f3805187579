from pathlib import Path

import pytest

from benchdash_runner.adapters import AdapterError, ab, hey


def test_ab_named_after_file_with_concurrency(testdata: Path) -> None:
    (result,) = ab.parse([testdata / "ab/index.txt"])
    assert (result["benchmark"], result["parameters"]) == (
        "index",
        {"concurrency": 10, "requests": 2000},
    )
    m = {x["name"]: x for x in result["metrics"]}
    assert m["requests_per_second"]["samples"] == [1637.57]
    assert (m["requests_per_second"]["unit"], m["requests_per_second"]["direction"]) == (
        "req/s",
        "higher_is_better",
    )
    assert m["latency_mean_ms"]["samples"] == [6.107]  # not the "across all concurrent" one
    assert m["transfer_bytes_per_second"]["samples"] == [pytest.approx(6132.89 * 1024)]
    assert m["latency_p50_ms"]["samples"] == [2.0]
    assert m["latency_p99_ms"]["samples"] == [16.0]
    assert m["latency_max_ms"]["samples"] == [1220.0]
    assert m["latency_p99_ms"]["direction"] == "lower_is_better"
    assert m["failed_requests"]["samples"] == [0.0] and m["non_2xx_responses"]["samples"] == [0.0]


def test_ab_non_2xx_and_runs_appended(testdata: Path, tmp_path: Path) -> None:
    (missing,) = ab.parse([testdata / "ab/missing.txt"])
    assert {x["name"]: x for x in missing["metrics"]}["non_2xx_responses"]["samples"] == [500.0]
    twice = tmp_path / "index.txt"
    twice.write_text((testdata / "ab/index.txt").read_text() * 2)
    (result,) = ab.parse([twice])
    assert {x["name"]: x for x in result["metrics"]}["requests_per_second"]["samples"] == [
        1637.57,
        1637.57,
    ]


def test_ab_truncated_and_bad_numbers_named(testdata: Path, tmp_path: Path) -> None:
    lines = (testdata / "ab/index.txt").read_text().splitlines()
    bad = tmp_path / "cut.txt"
    bad.write_text("\n".join(lines[:20]))
    with pytest.raises(AdapterError, match=r"cut.txt:1: run has no requests_per_second"):
        ab.parse([bad])
    wrong = [line.replace("1637.57", "1637.5.7") for line in lines]
    bad.write_text("\n".join(wrong))
    with pytest.raises(AdapterError, match=r"cut.txt:21: '1637.5.7' is not a number"):
        ab.parse([bad])


def test_hey_seconds_become_ms(testdata: Path) -> None:
    (result,) = hey.parse([testdata / "hey/index.txt"])
    assert (result["benchmark"], result["parameters"]) == ("index", {})
    m = {x["name"]: x for x in result["metrics"]}
    assert m["requests_per_second"]["samples"] == [848.5706]
    assert m["requests_per_second"]["direction"] == "higher_is_better"
    assert m["latency_avg_ms"]["samples"] == [8.1]
    assert m["latency_max_ms"]["samples"] == [1221.2]
    assert m["latency_min_ms"]["samples"] == [0.4]
    # hey 0.1.5 prints "50%% in 0.0037 secs"
    assert m["latency_p50_ms"]["samples"] == [3.7]
    assert m["latency_p99_ms"]["samples"] == [15.9]
    assert (m["latency_p99_ms"]["unit"], m["latency_p99_ms"]["direction"]) == (
        "ms",
        "lower_is_better",
    )
    assert m["non_2xx_responses"]["samples"] == [0.0] and m["errors"]["samples"] == [0.0]


def test_hey_status_codes_outside_2xx_counted(testdata: Path) -> None:
    (result,) = hey.parse([testdata / "hey/missing.txt"])
    m = {x["name"]: x for x in result["metrics"]}
    assert m["non_2xx_responses"]["samples"] == [500.0]
    assert m["non_2xx_responses"]["unit"] == "count"


def test_hey_bad_number_named(testdata: Path, tmp_path: Path) -> None:
    text = (testdata / "hey/index.txt").read_text().replace("848.5706", "many")
    bad = tmp_path / "h.txt"
    bad.write_text(text)
    with pytest.raises(AdapterError, match=r"h.txt:7: 'many' is not a number"):
        hey.parse([bad])
    bad.write_text((testdata / "hey/index.txt").read_text().replace("0.0081", "0.00.81"))
    with pytest.raises(AdapterError, match=r"h.txt:6: '0.00.81' is not a number"):
        hey.parse([bad])


def test_hey_runs_appended_become_samples(testdata: Path, tmp_path: Path) -> None:
    both = tmp_path / "index.txt"
    both.write_text(
        (testdata / "hey/index.txt").read_text() + (testdata / "hey/missing.txt").read_text()
    )
    (result,) = hey.parse([both])
    m = {x["name"]: x for x in result["metrics"]}
    assert m["requests_per_second"]["samples"] == [848.5706, 1374.2036]
    assert m["non_2xx_responses"]["samples"] == [0.0, 500.0]
