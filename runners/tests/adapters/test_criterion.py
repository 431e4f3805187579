import json
import shutil
from pathlib import Path

import pytest

from benchdash_runner.adapters import AdapterError, criterion


def by_name(results: list[dict], name: str, **params: object) -> dict:
    return next(r for r in results if r["benchmark"] == name and r["parameters"] == params)


def test_parses_every_benchmark_with_samples_and_throughput(testdata: Path) -> None:
    results = criterion.parse([testdata / "criterion/criterion"])
    assert sorted((r["benchmark"], r["parameters"].get("input")) for r in results) == [
        ("fnv1a", 64),
        ("fnv1a", 1024),
        ("sum_elems/100", None),
        ("sum_squares_1000", None),
    ]
    fnv = by_name(results, "fnv1a", input=64)
    time, thrpt = fnv["metrics"]
    assert (time["name"], time["unit"], time["direction"]) == ("time", "ns", "lower_is_better")
    assert time["value"] == pytest.approx(44.99420617210509)
    assert len(time["samples"]) == 10
    assert time["samples"][0] == pytest.approx(9098303.0 / 207486.0)
    assert (thrpt["name"], thrpt["unit"], thrpt["direction"]) == (
        "throughput_bytes",
        "bytes/s",
        "higher_is_better",
    )
    assert thrpt["value"] == pytest.approx(64 / 44.99420617210509e-9)
    assert len(thrpt["samples"]) == 10


def test_elements_throughput_and_plain_function(testdata: Path) -> None:
    results = criterion.parse([testdata / "criterion/criterion"])
    elems = by_name(results, "sum_elems/100")
    assert [m["unit"] for m in elems["metrics"]] == ["ns", "elements/s"]
    plain = by_name(results, "sum_squares_1000")
    assert [m["name"] for m in plain["metrics"]] == ["time"]


def test_base_folders_are_ignored(testdata: Path, tmp_path: Path) -> None:
    root = tmp_path / "criterion"
    shutil.copytree(testdata / "criterion/criterion/fnv1a/64", root / "fnv1a/64")
    shutil.copytree(root / "fnv1a/64/new", root / "fnv1a/64/base")
    assert len(criterion.parse([root])) == 1


def test_truncated_sample_names_file_and_line(testdata: Path, tmp_path: Path) -> None:
    root = tmp_path / "criterion"
    shutil.copytree(testdata / "criterion/criterion/fnv1a/64", root / "fnv1a/64")
    sample = root / "fnv1a/64/new/sample.json"
    sample.write_text('{\n"sampling_mode":"Linear",\n"iters":[1.0,2.0\n')
    with pytest.raises(AdapterError) as err:
        criterion.parse([root])
    assert err.value.path == sample
    assert err.value.line == 4
    assert str(sample) in str(err.value)


def test_mismatched_samples_and_missing_estimates(testdata: Path, tmp_path: Path) -> None:
    root = tmp_path / "c"
    shutil.copytree(testdata / "criterion/criterion/fnv1a/64", root / "fnv1a/64")
    sample = root / "fnv1a/64/new/sample.json"
    sample.write_text(json.dumps({"iters": [1.0, 2.0], "times": [5.0]}))
    with pytest.raises(AdapterError, match="same length"):
        criterion.parse([root])
    (root / "fnv1a/64/new/estimates.json").unlink()
    with pytest.raises(AdapterError, match=r"estimates\.json: no such file"):
        criterion.parse([root])


def test_directory_without_benchmarks(tmp_path: Path) -> None:
    with pytest.raises(AdapterError, match=r"no \*/new/benchmark\.json"):
        criterion.parse([tmp_path])
