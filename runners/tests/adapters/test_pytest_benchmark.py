import json
from pathlib import Path

import pytest

from benchdash_runner.adapters import AdapterError, pytest_benchmark
from benchdash_runner.sampling import KEPT_SAMPLES


def test_each_test_with_rounds_as_samples_in_ns(testdata: Path) -> None:
    results = pytest_benchmark.parse([testdata / "pytest-benchmark/benchmark.json"])
    assert [(r["benchmark"], r["parameters"]) for r in results] == [
        ("test_small.py::test_json_roundtrip", {}),
        ("test_small.py::test_sha256", {"size": 64}),
        ("test_small.py::test_sha256", {"size": 4096}),
        ("test_small.py::test_sorted_pedantic", {}),
    ]
    (sha64,) = results[1]["metrics"]
    assert (sha64["name"], sha64["unit"], sha64["direction"]) == ("time", "ns", "lower_is_better")
    assert len(sha64["samples"]) == 11
    assert sum(sha64["samples"]) / 11 == pytest.approx(742.1818137035271)
    assert len(results[3]["metrics"][0]["samples"]) == 7  # pedantic: 7 rounds x 3 iterations


def test_without_data_value_only(testdata: Path, tmp_path: Path) -> None:
    data = json.loads((testdata / "pytest-benchmark/benchmark.json").read_text())
    for b in data["benchmarks"]:
        del b["stats"]["data"]
    f = tmp_path / "nodata.json"
    f.write_text(json.dumps(data))
    results = pytest_benchmark.parse([f])
    assert all("samples" not in r["metrics"][0] for r in results)
    assert results[1]["metrics"][0]["value"] == pytest.approx(
        data["benchmarks"][1]["stats"]["median"] * 1e9
    )


def test_missing_stats_named(tmp_path: Path) -> None:
    f = tmp_path / "b.json"
    f.write_text(json.dumps({"benchmarks": [{"name": "test_a", "fullname": "t.py::test_a"}]}))
    with pytest.raises(AdapterError, match=r"b.json: benchmarks\[0\] has no stats"):
        pytest_benchmark.parse([f])


def test_not_a_number_named(testdata: Path, tmp_path: Path) -> None:
    data = json.loads((testdata / "pytest-benchmark/benchmark.json").read_text())
    data["benchmarks"][2]["stats"]["data"][3] = "fast"
    f = tmp_path / "b.json"
    f.write_text(json.dumps(data))
    with pytest.raises(
        AdapterError, match=r"test_sha256\[4096\]\)\.stats\.data\[3\] must be a number"
    ):
        pytest_benchmark.parse([f])


def test_200k_rounds_keep_the_tools_median_and_a_spread_of_rounds(rounds_200k: Path) -> None:
    stats = {b["name"]: b["stats"] for b in json.loads(rounds_200k.read_text())["benchmarks"]}
    assert stats["test_digest_64"]["rounds"] == len(stats["test_digest_64"]["data"]) == 200_000
    digest, sort = pytest_benchmark.parse([rounds_200k])
    (time,) = digest["metrics"]
    assert len(time["samples"]) == KEPT_SAMPLES
    assert time["value"] == pytest.approx(stats["test_digest_64"]["median"] * 1e9)
    # Spread by rank: the extremes and the quartiles of all 200,000 rounds survive.
    kept = sorted(time["samples"])
    assert kept[0] == pytest.approx(stats["test_digest_64"]["min"] * 1e9)
    assert kept[-1] == pytest.approx(stats["test_digest_64"]["max"] * 1e9)
    for q, key in ((0.25, "q1"), (0.5, "median"), (0.75, "q3")):
        assert kept[round(q * (KEPT_SAMPLES - 1))] == pytest.approx(
            stats["test_digest_64"][key] * 1e9, rel=0.01
        )
    # A benchmark with few rounds is sent whole, its value left to the server.
    (sort_time,) = sort["metrics"]
    assert len(sort_time["samples"]) == stats["test_sort_1000"]["rounds"] == 90
    assert "value" not in sort_time
