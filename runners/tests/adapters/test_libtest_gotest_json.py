import json
from pathlib import Path

import pytest

from benchdash_runner.adapters import AdapterError, gobench, gotest_json, libtest


def test_libtest_lines_with_commas_and_mb_per_s(testdata: Path) -> None:
    results = {r["benchmark"]: r for r in libtest.parse([testdata / "libtest/bench.txt"])}
    assert sorted(results) == [
        "tests::bench_fnv1a_4096",
        "tests::bench_fnv1a_64",
        "tests::bench_sort_1000",
    ]
    time, throughput = results["tests::bench_fnv1a_4096"]["metrics"]
    assert (time["name"], time["unit"], time["direction"], time["value"]) == (
        "time",
        "ns",
        "lower_is_better",
        4013.25,  # printed "4,013.25 ns/iter"
    )
    assert (throughput["name"], throughput["unit"], throughput["value"]) == (
        "throughput",
        "MB/s",
        1020.0,
    )
    assert throughput["direction"] == "higher_is_better"
    assert [m["name"] for m in results["tests::bench_sort_1000"]["metrics"]] == ["time"]


def test_libtest_runs_appended_become_samples(testdata: Path, tmp_path: Path) -> None:
    text = (testdata / "libtest/bench.txt").read_text()
    two = tmp_path / "two.txt"
    two.write_text(text + text)
    results = {r["benchmark"]: r for r in libtest.parse([two])}
    assert results["tests::bench_fnv1a_64"]["metrics"][0]["samples"] == [29.57, 29.57]


def test_libtest_garbled_line_named(testdata: Path, tmp_path: Path) -> None:
    lines = (testdata / "libtest/bench.txt").read_text().splitlines()
    lines[4] = lines[4].replace("ns/iter", "ns per iter")
    bad = tmp_path / "b.txt"
    bad.write_text("\n".join(lines))
    with pytest.raises(AdapterError, match=r"b.txt:5: cannot read the bench line"):
        libtest.parse([bad])


def test_gotest_json_equals_the_text_it_wraps(testdata: Path) -> None:
    results = gotest_json.parse([testdata / "gotest-json/bench.jsonl"])
    assert [(r["benchmark"], r["parameters"]) for r in results] == [
        ("Join", {"gomaxprocs": 2, "n": 10}),
        ("Join", {"gomaxprocs": 2, "n": 100}),
        ("SortCopy", {"gomaxprocs": 2}),
        ("Digest", {"gomaxprocs": 2}),
    ]
    join10 = {m["name"]: m for m in results[0]["metrics"]}
    # the second of the three lines was split over two events by go test; it is still read
    assert join10["time"]["samples"] == [215.7, 193.6, 265.5]
    assert join10["alloc_bytes"]["samples"] == [208.0] * 3
    custom = {m["name"]: m for m in results[2]["metrics"]}["items_per_s"]
    assert (custom["unit"], custom["direction"]) == ("items/s", "higher_is_better")
    text = "".join(
        e.get("Output", "")
        for e in map(json.loads, (testdata / "gotest-json/bench.jsonl").read_text().splitlines())
    )
    series: gobench.Series = {}
    gobench.collect(Path("text"), enumerate(text.splitlines(), 1), series)
    assert gobench.results_of(series) == results


def test_gotest_json_bad_event_line_named(testdata: Path, tmp_path: Path) -> None:
    lines = (testdata / "gotest-json/bench.jsonl").read_text().splitlines()
    lines[11] = lines[11][:40]
    bad = tmp_path / "g.jsonl"
    bad.write_text("\n".join(lines))
    with pytest.raises(AdapterError, match=r"g.jsonl:12: invalid JSON event"):
        gotest_json.parse([bad])


def test_gotest_json_bad_benchmark_text_names_its_event_line(
    testdata: Path, tmp_path: Path
) -> None:
    lines = (testdata / "gotest-json/bench.jsonl").read_text().splitlines()
    lines[13] = lines[13].replace("193.6", "fast")  # in the split line's second half
    bad = tmp_path / "g.jsonl"
    bad.write_text("\n".join(lines))
    with pytest.raises(AdapterError) as err:
        gotest_json.parse([bad])
    assert err.value.line == 13  # where the text line started


def test_gotest_json_without_benchmarks(tmp_path: Path) -> None:
    bad = tmp_path / "g.jsonl"
    bad.write_text('{"Action":"start","Package":"x"}\n{"Action":"pass","Package":"x"}\n')
    with pytest.raises(AdapterError, match="no benchmark lines"):
        gotest_json.parse([bad])
