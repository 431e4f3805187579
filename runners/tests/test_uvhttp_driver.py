"""The uvhttp driver's parsing and conversion, on real wrk output, /proc files and records."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

from benchdash_runner import driving

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "testdata" / "wrk" / "uvhttp"
sys.path.insert(0, str(ROOT / "uvhttp"))

import uvhttp_bench as bench  # noqa: E402
import uvhttp_record as rec  # noqa: E402

MANIFEST = tomllib.loads((ROOT / "uvhttp" / "runner.toml").read_text())


def _load_driver() -> ModuleType:
    loader = importlib.machinery.SourceFileLoader("uvhttp_driver", str(ROOT / "uvhttp/driver.py"))
    spec = importlib.util.spec_from_loader("uvhttp_driver", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def _records() -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted((DATA / "records").glob("*.json"))]


def test_report_line_gives_the_seed_results() -> None:
    report = bench.parse_report((DATA / "low_uvhttp.txt").read_text())
    res = bench.seed_results(report)
    seconds = report["duration_us"] / 1e6
    assert res["total_requests"] == report["requests"] > 1000
    assert res["requests_per_second"] == pytest.approx(report["requests"] / seconds)
    assert res["transfer_rate_mbps"] == pytest.approx(report["bytes"] / seconds / 2**20)
    assert 0 < res["latency_p50_ms"] <= res["latency_p95_ms"] <= res["latency_p99_ms"]
    assert res["latency_p99_ms"] <= res["latency_p999_ms"]
    assert res["socket_errors"] == res["non_2xx_responses"] == 0
    # wrk's own text agrees with the hook (Requests/sec is requests over the same duration)
    text = (DATA / "low_uvhttp.txt").read_text()
    printed = float(text.split("Requests/sec:")[1].split()[0])
    assert res["requests_per_second"] == pytest.approx(printed, rel=1e-3)


def test_error_scenarios_count_every_response_as_non_2xx() -> None:
    res = bench.seed_results(bench.parse_report((DATA / "notfound_uvhttp.txt").read_text()))
    assert res["non_2xx_responses"] == res["total_requests"] > 0


def test_output_without_the_hook_is_refused_naming_it() -> None:
    with pytest.raises(ValueError, match="##uvhttp-wrk"):
        bench.parse_report((ROOT / "testdata" / "wrk" / "plain.txt").read_text())
    broken = (DATA / "low_uvhttp.txt").read_text().replace('"99.9":', '"99.8":')
    with pytest.raises(ValueError, match="unreadable wrk report"):
        bench.parse_report(broken)


def test_scripts_and_parameters() -> None:
    post = bench.SCENARIOS["method/post"]
    script = bench.lua_script(post, "-- hook")
    assert script.splitlines()[:2] == ['wrk.method = "POST"', 'wrk.body = \'{"test":"data"}\'']
    assert script.endswith("-- hook")
    assert bench.lua_script(bench.SCENARIOS["low_concurrency"], "-- hook") == "-- hook"
    assert bench.SCENARIOS["low_concurrency"].parameters(10) == {
        "threads": 2,
        "connections": 10,
        "duration_s": 10,
    }
    assert post.parameters(2) == {
        "threads": 4,
        "connections": 50,
        "duration_s": 2,
        "path": "/api",
        "method": "POST",
    }
    cmd = bench.wrk_command(post, 2, Path("x.lua"), "http://h/api")
    assert cmd == ["wrk", "-t4", "-c50", "-d2s", "--timeout", "10s", "-s", "x.lua", "http://h/api"]


def test_every_manifest_scenario_is_known() -> None:
    for profile in MANIFEST["profiles"].values():
        assert set(profile["scenarios"]) <= set(bench.SCENARIOS)
    assert {s.name for s in bench.SCENARIOS.values() if s.reference} == {
        "low_concurrency",
        "medium_concurrency",
        "high_concurrency",
        *(f"thread_sweep/{t}" for t in (1, 2, 4, 8, 16)),
    }


def test_records_become_results_with_same_run_ratios() -> None:
    records = _records()
    results = rec.to_results(records)
    by = {(r["benchmark"], r["parameters"].get("scenario")): r for r in results}
    assert set(by) == {
        ("low_concurrency", None),
        ("method", None),
        ("nginx_reference", "low_concurrency"),
    }
    ours = {m["name"]: m for m in by[("low_concurrency", None)]["metrics"]}
    ref = {m["name"]: m for m in by[("nginx_reference", "low_concurrency")]["metrics"]}
    assert ours["requests_per_second"]["samples"] == [
        r["results"]["requests_per_second"]
        for r in sorted(records, key=lambda r: r["test_scenario"]["repetition"])
        if r["server"] == "uvhttp" and r["test_scenario"]["name"] == "low_concurrency"
    ]
    mine, theirs = ours["requests_per_second"]["samples"], ref["requests_per_second"]["samples"]
    ratios = [a / b for a, b in zip(mine, theirs, strict=True)]
    assert ours["nginx_rps_ratio"]["samples"] == pytest.approx(ratios)
    assert ours["nginx_rps_ratio"]["value"] == pytest.approx(sum(ratios) / 3)
    assert "nginx_rps_ratio" not in ref and "nginx_rps_ratio" not in {
        m["name"] for m in by[("method", None)]["metrics"]
    }
    driving.check_against_manifest(results, MANIFEST)  # names, units, directions declared


def test_iqr_removal_and_validation() -> None:
    assert rec.iqr_filtered([10.0, 11.0, 10.5, 10.2, 30.0]) == [10.0, 11.0, 10.5, 10.2]
    assert rec.iqr_filtered([1.0, 50.0, 100.0]) == [1.0, 50.0, 100.0]  # too few to judge
    checks = {(c["server"], c["scenario"]): c for c in rec.validate(_records())}
    low = checks[("uvhttp", "low_concurrency")]
    assert low["n"] == 3 and low["cv_ok"] == (low["cv_pct"] < 10)
    assert "validation uvhttp low_concurrency: n=3" in rec.describe(low)


def test_nginx_config_stays_in_its_prefix(tmp_path: Path) -> None:
    conf = bench.nginx_config(tmp_path, 18099)
    assert "listen 127.0.0.1:18099;" in conf and 'return 200 "OK";' in conf
    assert "master_process off;" in conf and "access_log off;" in conf
    paths = [w.rstrip(";") for w in conf.split() if w.startswith("/") and w != "/"]
    assert paths and all(p.startswith(str(tmp_path)) for p in paths)


def test_driver_module_loads_and_names_its_manifest() -> None:
    driver = _load_driver()
    assert driver.MANIFEST == ROOT / "uvhttp" / "runner.toml"
