"""The relay driver's conversion and selection, on real Criterion output of the relay benches."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

from benchdash_runner import driving
from benchdash_runner.adapters import AdapterError

ROOT = Path(__file__).resolve().parents[1]
CRITERION = ROOT / "testdata" / "criterion" / "relay"
sys.path.insert(0, str(ROOT / "relay"))  # driver.py imports relay_callgrind beside it


def _load_driver() -> ModuleType:
    spec = importlib.util.spec_from_file_location("relay_driver", ROOT / "relay" / "driver.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


driver = _load_driver()
FOUND = driver.read_criterion_dir(CRITERION)


def test_ids_map_to_the_shared_adapters_names() -> None:
    names = {k: (v["benchmark"], v["parameters"]) for k, v in FOUND.items()}
    assert names == {
        "encryption/10": ("encryption", {"input": 10}),
        "large_array/10": ("large_array", {"input": 10}),
        "simple_serialize": ("simple_serialize", {}),
        "decryption_with_cache/second_decrypt_cache_hit": (
            "decryption_with_cache/second_decrypt_cache_hit",
            {},
        ),
        "sse_parsing/message_start": ("sse_parsing", {"input": "message_start"}),
    }


def test_time_is_the_mean_and_samples_are_per_iteration() -> None:
    folder = CRITERION / "encryption/10/new"
    sample = json.loads((folder / "sample.json").read_text())
    mean = json.loads((folder / "estimates.json").read_text())["mean"]["point_estimate"]
    time, throughput = driver.criterion_result([FOUND["encryption/10"]])["metrics"]
    assert (time["name"], time["unit"], time["direction"]) == ("time", "ns", "lower_is_better")
    assert time["value"] == pytest.approx(mean)
    assert len(time["samples"]) == len(sample["iters"])
    assert time["samples"][0] == pytest.approx(sample["times"][0] / sample["iters"][0])
    assert (throughput["name"], throughput["unit"]) == ("throughput_bytes", "bytes/s")
    assert throughput["value"] == pytest.approx(10 / (mean * 1e-9))


def test_elements_get_their_own_metric_and_plain_ids_only_time() -> None:
    elems = driver.criterion_result([FOUND["large_array/10"]])
    assert [(m["name"], m["unit"]) for m in elems["metrics"]] == [
        ("time", "ns"),
        ("throughput_elements", "elements/s"),
    ]
    plain = driver.criterion_result([FOUND["simple_serialize"]])
    assert [m["name"] for m in plain["metrics"]] == ["time"]


def test_repetitions_pool_samples_and_average_means() -> None:
    one = FOUND["simple_serialize"]
    slower = {**one, "metrics": [{**one["metrics"][0], "value": one["metrics"][0]["value"] * 3}]}
    time = driver.criterion_result([one, slower])["metrics"][0]
    assert time["value"] == pytest.approx(one["metrics"][0]["value"] * 2)
    assert len(time["samples"]) == 2 * len(one["metrics"][0]["samples"])


def test_openssl_ratio_is_attached_to_the_matching_size() -> None:
    results = [driver.criterion_result([FOUND["encryption/10"]])]
    own_bps = 10 / (results[0]["metrics"][0]["value"] * 1e-9)
    driver.openssl_results([{("encrypt", 10): own_bps / 0.5, ("decrypt", 10): 1e9}], results)
    ratio = results[0]["metrics"][-1]
    assert (ratio["name"], ratio["unit"]) == ("openssl_ratio", "ratio")
    assert ratio["value"] == pytest.approx(0.5)
    refs = [r for r in results if r["benchmark"] == "openssl_aes_256_cbc"]
    assert [r["parameters"] for r in refs] == [
        {"input": 10, "operation": "encrypt"},
        {"input": 10, "operation": "decrypt"},
    ]
    # The reference's metric is the one the manifest declares for byte rates.
    assert [(m["name"], m["unit"]) for m in refs[0]["metrics"]] == [("throughput_bytes", "bytes/s")]
    manifest = tomllib.loads((ROOT / "relay" / "runner.toml").read_text())
    driving.check_against_manifest(results, manifest)


def test_broken_samples_are_rejected(tmp_path: Path) -> None:
    shutil.copytree(CRITERION / "simple_serialize", tmp_path / "simple_serialize")
    (tmp_path / "simple_serialize/new/sample.json").write_text(
        json.dumps({"iters": [1.0, 2.0], "times": [5.0]})
    )
    with pytest.raises(AdapterError):
        driver.read_criterion_dir(tmp_path)


def test_benchmark_selection_by_id_group_and_reference() -> None:
    manifest = tomllib.loads((ROOT / "relay" / "runner.toml").read_text())
    scenarios = manifest["profiles"]["quick"]["scenarios"]
    assert driving.select(scenarios, "encryption,openssl_reference") == [
        "encryption/10",
        "encryption/100",
        "encryption/1000",
        "encryption/10000",
        "openssl_reference",
    ]
    assert driving.select(scenarios, "simple_serialize") == ["simple_serialize"]
    with pytest.raises(SystemExit, match=r"unknown benchmarks: encryption/1 "):
        driving.select(scenarios, "encryption/1")


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("Benchmarking encryption/10", "encryption/10"),
        ("Benchmarking encryption/10: Warming up for 300.00 ms", "encryption/10"),
        ("Benchmarking simple_serialize: Analyzing", "simple_serialize"),
    ],
)
def test_benchmarking_lines(line: str, name: str) -> None:
    match = driver.BENCHMARKING.match(line)
    assert match is not None and match.group(1) == name
    assert driver.BENCHMARKING.match("encryption/10  time: [1 ns 2 ns 3 ns]") is None
