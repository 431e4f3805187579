from pathlib import Path

import pytest

from benchdash_runner.adapters import AdapterError, gobench


def test_counts_become_samples_and_units_become_metrics(testdata: Path) -> None:
    results = gobench.parse([testdata / "gobench/bench.txt"])
    assert [(r["benchmark"], r["parameters"]) for r in results] == [
        ("Join", {"gomaxprocs": 2, "n": 10}),
        ("Join", {"gomaxprocs": 2, "n": 100}),
        ("SortCopy", {"gomaxprocs": 2}),
        ("Digest", {"gomaxprocs": 2}),
    ]
    join10 = {m["name"]: m for m in results[0]["metrics"]}
    assert set(join10) == {"time", "alloc_bytes", "allocs"}
    assert join10["time"]["samples"] == [293.6, 329.8, 434.9, 397.7, 401.9]
    assert join10["time"]["unit"] == "ns"
    assert "value" not in join10["time"]  # the server takes the median of the samples
    assert join10["alloc_bytes"]["samples"] == [208.0] * 5
    assert join10["allocs"]["direction"] == "lower_is_better"


def test_mb_per_s_and_custom_report_metric(testdata: Path) -> None:
    results = {r["benchmark"]: r for r in gobench.parse([testdata / "gobench/bench.txt"])}
    digest = {m["name"]: m for m in results["Digest"]["metrics"]}
    assert digest["throughput"]["unit"] == "MB/s"
    assert digest["throughput"]["direction"] == "higher_is_better"
    assert digest["throughput"]["samples"][0] == 1380.83
    custom = {m["name"]: m for m in results["SortCopy"]["metrics"]}["items_per_s"]
    assert (custom["unit"], custom["direction"]) == ("items/s", "higher_is_better")
    assert custom["samples"] == [35406920, 34419375, 40603648, 42709907, 38747494]


def test_odd_field_count_names_line(testdata: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bench.txt"
    lines = (testdata / "gobench/bench.txt").read_text().splitlines()
    lines[6] = lines[6] + "\t17"
    bad.write_text("\n".join(lines))
    with pytest.raises(AdapterError) as err:
        gobench.parse([bad])
    assert err.value.line == 7
    assert f"{bad}:7" in str(err.value)


def test_non_number_names_line(tmp_path: Path) -> None:
    bad = tmp_path / "b.txt"
    bad.write_text("goos: linux\nBenchmarkX-8   100   fast ns/op\n")
    with pytest.raises(AdapterError, match=r"b.txt:2: 'fast' is not a number"):
        gobench.parse([bad])


def test_file_without_benchmarks_is_an_error(testdata: Path) -> None:
    with pytest.raises(AdapterError, match="no benchmark lines"):
        gobench.parse([testdata / "wrk/plain.txt"])
