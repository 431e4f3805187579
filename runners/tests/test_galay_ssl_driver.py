"""The galay-ssl driver: its report parsing, ratios and manifest, on real client output."""

from __future__ import annotations

import importlib.util
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

from benchdash_runner import driving

ROOT = Path(__file__).resolve().parents[1]
MANIFEST = tomllib.loads((ROOT / "galay-ssl" / "runner.toml").read_text())


sys.path.insert(0, str(ROOT / "galay-ssl"))

import galay_report as report  # noqa: E402


def _load_driver() -> ModuleType:
    spec = importlib.util.spec_from_file_location("galay_ssl_driver", ROOT / "galay-ssl/driver.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["galay_ssl_driver"] = module
    spec.loader.exec_module(module)
    return module


driver = _load_driver()


def test_the_driver_loads_with_its_report_module() -> None:
    assert driver.report is report
    assert set(driver.PAIRS) == {"galay-ssl", "libevent"}


# B1-SslBenchClient 127.0.0.1 PORT 50 100 47 4 with GALAY_SSL_STATS=1 (captured from a run).
REPORT = """
Benchmark Results:
==================
Connections: 50
Requests per connection: 100
Payload bytes: 47
Threads: 4
Total requests: 5000
Total errors: 0
Total bytes sent: 235000
Total bytes received: 235000
Duration: 209 ms
Requests/sec: 23885.7
Throughput: 2.14124 MB/s (MiB/s: 1 MB = 1048576 bytes)
Duration us: 209330
TLS: TLSv1.3 TLS_AES_128_GCM_SHA256

SSL IO Stats (Benchmark-side):
Send ops: 5000, send plain bytes: 235000
Recv ops: 5000, recv plain bytes: 235000, recv chunks: 5000
Avg recv chunk bytes: 47
"""

# B1-SslBenchClient 127.0.0.1 1 2 3 47 1 1: nothing listens on port 1.
REFUSED = """
Benchmark Results:
==================
Connections: 2
Requests per connection: 3
Payload bytes: 47
Threads: 1
Total requests: 0
Total errors: 2
Error breakdown: connect=2 handshake=0 send=0 recv=0 peer_closed=0
Total bytes sent: 0
Total bytes received: 0
Duration: 56 ms
Requests/sec: 0
Throughput: 0 MB/s (MiB/s: 1 MB = 1048576 bytes)
Duration us: 56578
TLS: none
"""


def test_a_report_gives_every_metric_with_the_precise_duration() -> None:
    values = report.parse_report(REPORT)
    assert values == {
        "requests": 5000.0,
        "errors": 0.0,
        "qps": 23885.7,
        "throughput": 2.14124,
        "duration_ms": pytest.approx(209.33),
    }
    assert report.negotiated(REPORT) == "TLSv1.3 TLS_AES_128_GCM_SHA256"


def test_a_failed_run_still_reports_its_errors() -> None:
    values = report.parse_report(REFUSED)
    assert (values["errors"], values["requests"], values["qps"]) == (2.0, 0.0, 0.0)
    assert report.negotiated(REFUSED) == "none"


def test_a_truncated_report_names_what_is_missing() -> None:
    cut = REPORT.split("Requests/sec")[0]
    with pytest.raises(ValueError, match="Requests/sec, Throughput, Duration us"):
        report.parse_report(cut)
    with pytest.raises(ValueError, match="Total requests"):
        report.parse_report("usage: B1-SslBenchClient <host> <port> ...")


def _round(qps: float) -> dict[str, float]:
    return {"qps": qps, "throughput": 1.0, "duration_ms": 2.0, "errors": 0.0, "requests": 3.0}


def test_the_ratio_pairs_rounds_and_skips_rounds_without_a_reference() -> None:
    ratio = report.qps_ratio(
        [_round(120), _round(90), _round(50)], [_round(100), _round(0), _round(50)]
    )
    assert ratio is not None
    assert (ratio["name"], ratio["unit"], ratio["direction"]) == (
        "qps_ratio",
        "x",
        "higher_is_better",
    )
    assert ratio["samples"] == [1.2, 1.0]
    assert report.qps_ratio([_round(1)], [_round(0)]) is None


def test_results_carry_a_sample_per_round_and_match_the_manifest() -> None:
    params = {"connections": 1, "requests": 3, "payload": 47, "threads": 1}
    ours = report.result("small_packet", params, [_round(10), _round(20)])
    ours["metrics"].append(report.qps_ratio([_round(10)], [_round(5)]))
    ref = report.result("libevent_reference", {"scenario": "small_packet", **params}, [_round(9)])
    assert [m["samples"] for m in ours["metrics"] if m["name"] == "qps"] == [[10, 20]]
    driving.check_against_manifest([ours, ref], MANIFEST)  # raises on any mismatch


def test_every_profile_parameterises_every_scenario() -> None:
    for name, profile in MANIFEST["profiles"].items():
        assert set(profile["parameters"]) == set(profile["scenarios"]), name
        for scenario, params in profile["parameters"].items():
            counted = {"connections", "requests", "payload", "threads"}
            # the instrumented profile also names its uncounted warm-up
            extra = {"warmup"} if profile.get("harness") == "callgrind" else set()
            assert set(params) == counted | extra, scenario


def test_quick_is_the_issues_scaling_and_full_the_seeds_parameters() -> None:
    quick, full = MANIFEST["profiles"]["quick"], MANIFEST["profiles"]["full"]
    assert quick["repetitions"] == 3 and full["repetitions"] == 5
    small = {"connections": 50, "requests": 100, "payload": 47, "threads": 4}
    assert quick["parameters"]["small_packet"] == small
    large = {"connections": 5, "requests": 50, "payload": 65536, "threads": 1}
    assert quick["parameters"]["large_packet"] == large
    assert full["parameters"]["small_packet"] == {**small, "connections": 200, "requests": 500}
    assert full["parameters"]["large_packet"] == {**large, "connections": 10, "requests": 200}
    assert full["parameters"]["bulk_64k"]["connections"] == 50
    assert full["parameters"]["bulk_64k"]["requests"] == 200
    assert full["parameters"]["correctness_1mib"]["payload"] == 1024 * 1024
