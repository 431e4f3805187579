import json
from pathlib import Path

import pytest

from benchdash_runner.adapters import AdapterError, gbench


def test_repetitions_become_samples_and_aggregates_are_not_counted(testdata: Path) -> None:
    results = gbench.parse([testdata / "gbench/repetitions.json"])
    names = [(r["benchmark"], r["parameters"]) for r in results]
    assert names == [
        ("BM_Accumulate/64", {}),
        ("BM_Accumulate/4096", {}),
        ("BM_StringCopy", {"len": 1024}),
        ("BM_Sort", {}),
    ]
    for r in results:
        for m in r["metrics"]:
            assert len(m["samples"]) == 3, (r["benchmark"], m["name"])
    acc = {m["name"]: m for m in results[0]["metrics"]}
    assert acc["real_time"]["samples"][0] == pytest.approx(39.750575193217834)
    # the mean of the three repetitions equals Google Benchmark's own mean aggregate
    assert sum(acc["real_time"]["samples"]) / 3 == pytest.approx(38.814749298446436)
    assert "value" not in acc["real_time"]
    assert (acc["items_per_second"]["unit"], acc["items_per_second"]["direction"]) == (
        "items/s",
        "higher_is_better",
    )


def test_times_converted_to_ns_and_counters_kept(testdata: Path) -> None:
    results = {r["benchmark"]: r for r in gbench.parse([testdata / "gbench/repetitions.json"])}
    sort = {m["name"]: m for m in results["BM_Sort"]["metrics"]}
    assert sort["cpu_time"]["unit"] == "ns"
    assert sort["real_time"]["samples"][0] == pytest.approx(7181.830144033396)  # 7.18 us
    copy = {m["name"]: m for m in results["BM_StringCopy"]["metrics"]}
    assert copy["bytes_per_second"]["unit"] == "bytes/s"
    assert copy["len"]["samples"] == [1024.0] * 3


def test_aggregates_only_output_uses_the_mean(testdata: Path) -> None:
    (result,) = gbench.parse([testdata / "gbench/aggregates_only.json"])
    real = result["metrics"][0]
    assert result["benchmark"] == "BM_Sort"
    assert "samples" not in real
    assert real["value"] == pytest.approx(7676.137663346338)


def test_truncated_json_names_line(testdata: Path, tmp_path: Path) -> None:
    text = (testdata / "gbench/repetitions.json").read_text()
    bad = tmp_path / "out.json"
    bad.write_text(text[: len(text) // 2])
    with pytest.raises(AdapterError) as err:
        gbench.parse([bad])
    assert err.value.path == bad and err.value.line is not None


def test_errored_benchmark_is_reported(tmp_path: Path) -> None:
    bad = tmp_path / "e.json"
    entry = {
        "name": "BM_X",
        "run_type": "iteration",
        "error_occurred": True,
        "error_message": "boom",
        "real_time": 0,
        "cpu_time": 0,
        "time_unit": "ns",
    }
    bad.write_text(json.dumps({"benchmarks": [entry]}))
    with pytest.raises(AdapterError, match="'BM_X' failed: boom"):
        gbench.parse([bad])


def test_wrong_shape(tmp_path: Path) -> None:
    bad = tmp_path / "w.json"
    bad.write_text("[1, 2]")
    with pytest.raises(AdapterError, match="'benchmarks' list"):
        gbench.parse([bad])
