import json
from pathlib import Path

import pytest

from benchdash_runner.adapters import AdapterError, catch2, vitest


def test_catch2_benchmarks_named_by_test_case_mean_in_ns(testdata: Path) -> None:
    results = catch2.parse([testdata / "catch2/bench.xml"])
    assert [r["benchmark"] for r in results] == [
        "sorting/sort 100",
        "sorting/sort 10000",
        "strings/join 64",
    ]
    (time,) = results[1]["metrics"]
    assert time == {"name": "time", "unit": "ns", "direction": "lower_is_better", "value": 311680.0}
    assert results[0]["parameters"] == {}


def test_catch2_sections_join_the_name(tmp_path: Path) -> None:
    f = tmp_path / "n.xml"
    f.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<Catch name="b"><Group name="b">\n'
        '<TestCase name="strings"><Section name="short">\n'
        '<BenchmarkResults name="join 64"><mean value="297.597"/></BenchmarkResults>\n'
        "</Section></TestCase></Group></Catch>\n"
    )
    assert catch2.parse([f])[0]["benchmark"] == "strings/short/join 64"


def test_catch2_broken_xml_names_line(testdata: Path, tmp_path: Path) -> None:
    lines = (testdata / "catch2/bench.xml").read_text().splitlines()
    bad = tmp_path / "c.xml"
    bad.write_text("\n".join(lines[:12]))
    with pytest.raises(AdapterError) as err:
        catch2.parse([bad])
    assert err.value.line is not None and str(err.value).startswith(f"{bad}:")


def test_catch2_without_benchmarks(tmp_path: Path) -> None:
    f = tmp_path / "c.xml"
    f.write_text('<?xml version="1.0"?>\n<Catch name="t"><Group name="t"/></Catch>\n')
    with pytest.raises(AdapterError, match="no <BenchmarkResults>"):
        catch2.parse([f])


def test_vitest_names_time_in_ms_and_hz(testdata: Path) -> None:
    results = {r["benchmark"]: r for r in vitest.parse([testdata / "vitest/bench.json"])}
    assert sorted(results) == [
        "small.bench.js > join 64",
        "small.bench.js > sort > copy then sort 1000",
        "small.bench.js > sort > toSorted 1000",
    ]
    raw = json.loads((testdata / "vitest/bench.json").read_text())
    bench = raw["files"][0]["groups"][1]["benchmarks"][0]
    metrics = {m["name"]: m for m in results["small.bench.js > sort > toSorted 1000"]["metrics"]}
    assert metrics["time"] == {
        "name": "time",
        "unit": "ms",
        "direction": "lower_is_better",
        "value": bench["median"],
    }
    assert metrics["throughput"]["value"] == bench["hz"]
    assert metrics["throughput"]["direction"] == "higher_is_better"
    assert metrics["time_p99"]["value"] == bench["p99"]


def test_vitest_samples_kept_when_present(testdata: Path, tmp_path: Path) -> None:
    raw = json.loads((testdata / "vitest/bench.json").read_text())
    raw["files"][0]["groups"][0]["benchmarks"][0]["samples"] = [0.5, 0.6, 0.7]
    f = tmp_path / "v.json"
    f.write_text(json.dumps(raw))
    time = vitest.parse([f])[0]["metrics"][0]
    assert time["samples"] == [0.5, 0.6, 0.7] and "value" not in time


def test_vitest_bad_number_named(testdata: Path, tmp_path: Path) -> None:
    raw = json.loads((testdata / "vitest/bench.json").read_text())
    raw["files"][0]["groups"][1]["benchmarks"][1]["hz"] = "fast"
    f = tmp_path / "v.json"
    f.write_text(json.dumps(raw))
    with pytest.raises(
        AdapterError, match=r"files\[0\].groups\[1\].benchmarks\[1\] \(copy then sort 1000\).hz"
    ):
        vitest.parse([f])
