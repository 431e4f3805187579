import json
from pathlib import Path

import pytest

from benchdash_runner.adapters import AdapterError, asv, pyperf

ASV_RESULT = "asv/results/capture/7f33971a-existing-py_tmp_fmt_pyv_bin_python3.json"


def test_pyperf_values_of_every_run_are_samples_in_ns(testdata: Path) -> None:
    results = pyperf.parse([testdata / "pyperf/suite.json"])
    assert [r["benchmark"] for r in results] == ["sort_list_100", "join_str_1000"]
    raw = json.loads((testdata / "pyperf/suite.json").read_text())["benchmarks"][0]["runs"]
    values = [v for run in raw for v in run.get("values", [])]
    (time,) = results[0]["metrics"]
    assert (time["name"], time["unit"], time["direction"]) == ("time", "ns", "lower_is_better")
    assert len(time["samples"]) == 18 == len(values)  # 6 processes x 3 values, warmups left out
    assert time["samples"] == pytest.approx([v * 1e9 for v in values])


def test_pyperf_timeit_takes_name_from_common_metadata(testdata: Path) -> None:
    (result,) = pyperf.parse([testdata / "pyperf/timeit.json"])
    assert result["benchmark"] == "timeit"
    assert len(result["metrics"][0]["samples"]) == 15


def test_pyperf_run_without_values_everywhere_is_an_error(testdata: Path, tmp_path: Path) -> None:
    data = json.loads((testdata / "pyperf/timeit.json").read_text())
    for run in data["benchmarks"][0]["runs"]:
        run.pop("values", None)
    bad = tmp_path / "p.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(AdapterError, match=r"p.json: timeit: no values"):
        pyperf.parse([bad])


def test_asv_parameters_named_from_benchmarks_json(testdata: Path) -> None:
    results = asv.parse([testdata / ASV_RESULT])
    sorted_ = [r for r in results if r["benchmark"] == "bench_small.TimeSort.time_sorted"]
    assert [r["parameters"] for r in sorted_] == [
        {"size": 10, "kind": "list"},
        {"size": 10, "kind": "tuple"},
        {"size": 1000, "kind": "list"},
        {"size": 1000, "kind": "tuple"},
    ]
    time = sorted_[2]["metrics"][0]
    assert (time["name"], time["unit"], time["direction"]) == ("time", "ns", "lower_is_better")
    assert len(time["samples"]) == 10
    assert time["samples"][0] == pytest.approx(4.7206000033384043e-05 * 1e9)


def test_asv_kinds(testdata: Path) -> None:
    by_name = {r["benchmark"]: r["metrics"][0] for r in asv.parse([testdata / ASV_RESULT])}
    assert (by_name["bench_small.mem_list"]["name"], by_name["bench_small.mem_list"]["value"]) == (
        "memory",
        8056.0,
    )
    assert by_name["bench_small.peakmem_bytes"]["unit"] == "bytes"
    assert by_name["bench_small.peakmem_bytes"]["name"] == "peak_memory"
    track = by_name["bench_small.track_items"]
    assert (track["name"], track["unit"], track["value"]) == ("value", "items", 42.0)


def test_asv_without_benchmarks_json_uses_prefixes(testdata: Path, tmp_path: Path) -> None:
    lone = tmp_path / "r.json"
    lone.write_text((testdata / ASV_RESULT).read_text())
    results = asv.parse([lone])
    first = results[0]
    assert first["parameters"] == {"param1": 10, "param2": "list"}
    assert {r["benchmark"]: r["metrics"][0]["unit"] for r in results}[
        "bench_small.track_items"
    ] == ("value")


def test_asv_failed_combination_is_left_out(testdata: Path, tmp_path: Path) -> None:
    data = json.loads((testdata / ASV_RESULT).read_text())
    data["results"]["bench_small.TimeSort.time_sorted"][0][1] = None
    bad = tmp_path / "r.json"
    bad.write_text(json.dumps(data))
    sorted_ = [r for r in asv.parse([bad]) if r["benchmark"].endswith("time_sorted")]
    assert len(sorted_) == 3


def test_asv_wrong_shape_named(testdata: Path, tmp_path: Path) -> None:
    data = json.loads((testdata / ASV_RESULT).read_text())
    data["results"]["bench_small.TimeSort.time_sorted"][0].pop()
    bad = tmp_path / "r.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(AdapterError, match=r"time_sorted: 3 results for 4 combinations"):
        asv.parse([bad])


def test_pyperf_reads_its_gzip_output(testdata: Path, tmp_path: Path) -> None:
    import gzip

    packed = tmp_path / "suite.json.gz"
    packed.write_bytes(gzip.compress((testdata / "pyperf/suite.json").read_bytes()))
    assert pyperf.parse([packed]) == pyperf.parse([testdata / "pyperf/suite.json"])


def test_asv_without_recorded_samples_takes_its_median(testdata: Path, tmp_path: Path) -> None:
    data = json.loads((testdata / ASV_RESULT).read_text())
    cut = data["result_columns"].index("samples")
    data["result_columns"] = data["result_columns"][:cut]
    data["results"] = {k: v[:cut] for k, v in data["results"].items()}
    f = tmp_path / "r.json"
    f.write_text(json.dumps(data))
    join = {r["benchmark"]: r for r in asv.parse([f])}["bench_small.time_join"]["metrics"][0]
    assert join["value"] == pytest.approx(7.115972000008241e-06 * 1e9)
    assert "samples" not in join
