import json
from pathlib import Path

import pytest

from benchdash_runner.adapters import AdapterError, jmh


def _by_key(results: list[dict]) -> dict:
    return {(r["benchmark"], r["parameters"]["size"]): r for r in results}


def test_modes_units_and_parameters(testdata: Path) -> None:
    results = _by_key(jmh.parse([testdata / "jmh/modes.json"]))
    assert sorted(results) == [
        ("bd.SmallBench.hashString", 16),
        ("bd.SmallBench.hashString", 1024),
        ("bd.SmallBench.sortCopy", 16),
        ("bd.SmallBench.sortCopy", 1024),
        ("bd.SmallBench.sum", 16),
        ("bd.SmallBench.sum", 1024),
    ]
    raw = json.loads((testdata / "jmh/modes.json").read_text())
    # thrpt in ops/ms -> ops/s, one sample per measurement iteration
    thrpt = results[("bd.SmallBench.sum", 16)]["metrics"][0]
    assert (thrpt["name"], thrpt["unit"], thrpt["direction"]) == (
        "throughput",
        "ops/s",
        "higher_is_better",
    )
    assert thrpt["samples"] == pytest.approx(
        [v * 1000 for v in raw[0]["primaryMetric"]["rawData"][0]]
    )
    assert len(thrpt["samples"]) == 5 and "value" not in thrpt
    # avgt already in ns/op
    avgt = results[("bd.SmallBench.sortCopy", 1024)]["metrics"][0]
    assert (avgt["name"], avgt["unit"], avgt["direction"]) == ("time", "ns", "lower_is_better")
    assert avgt["samples"] == raw[3]["primaryMetric"]["rawData"][0]


def test_sample_mode_mean_and_per_iteration_percentiles_in_ns(testdata: Path) -> None:
    raw = json.loads((testdata / "jmh/modes.json").read_text())[5]
    metrics = {
        m["name"]: m
        for m in _by_key(jmh.parse([testdata / "jmh/modes.json"]))[
            ("bd.SmallBench.hashString", 1024)
        ]["metrics"]
    }
    assert metrics["sample_time"]["value"] == pytest.approx(raw["primaryMetric"]["score"] * 1000)
    assert metrics["sample_time"]["unit"] == "ns"
    p50 = raw["secondaryMetrics"]["p0.50"]["rawData"][0]
    assert metrics["sample_time_p50"]["samples"] == pytest.approx([v * 1000 for v in p50])
    assert {"sample_time_min", "sample_time_p99_9", "sample_time_max"} <= set(metrics)


def test_gc_profiler_metrics_keep_units_and_are_costs(testdata: Path) -> None:
    (result,) = jmh.parse([testdata / "jmh/gc.json"])
    metrics = {m["name"]: m for m in result["metrics"]}
    norm = metrics["gc_alloc_rate_norm"]
    assert (norm["unit"], norm["direction"], len(norm["samples"])) == ("B/op", "lower_is_better", 5)
    assert metrics["gc_alloc_rate"]["unit"] == "MB/sec"
    assert metrics["gc_alloc_rate"]["direction"] == "lower_is_better"


def test_unknown_mode_and_unit_are_named(testdata: Path, tmp_path: Path) -> None:
    data = json.loads((testdata / "jmh/modes.json").read_text())[:1]
    data[0]["primaryMetric"]["scoreUnit"] = "ops/fortnight"
    bad = tmp_path / "j.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(
        AdapterError, match=r"j.json: \[0\] \(bd.SmallBench.sum\): unknown scoreUnit"
    ):
        jmh.parse([bad])
    data[0]["mode"] = "fast"
    bad.write_text(json.dumps(data))
    with pytest.raises(AdapterError, match="unknown mode 'fast'"):
        jmh.parse([bad])
