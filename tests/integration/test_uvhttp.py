"""uvhttp's quick profile through the real agent into the real API (issue 13 "Must show")."""

from __future__ import annotations

import shutil
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.integration.agents import agents, events, get, post
from tests.integration.conftest import Api
from tests.integration.instrumented import latest_run, run_driver, upload

BASIC = ("low_concurrency", "medium_concurrency", "high_concurrency")
SHOWN = (
    "requests_per_second",
    "latency_avg_ms",
    "latency_p50_ms",
    "latency_p95_ms",
    "latency_p99_ms",
    "latency_p999_ms",
    "transfer_mib_per_second",
    "cpu_percent",
    "memory_rss_mib",
    "voluntary_ctx_switches_per_second",
    "involuntary_ctx_switches_per_second",
    "requests_per_cpu_second",
    "nginx_rps_ratio",
)


def _split(measurements: list[dict[str, Any]]) -> tuple[dict[Any, Any], dict[Any, Any]]:
    ours, ref = {}, {}
    for m in measurements:
        if m["benchmark"] == "nginx_reference":
            ref[(m["parameters"]["scenario"], m["metric"])] = m
        else:
            ours[(m["benchmark"], m["metric"])] = m
    return ours, ref


def test_uvhttp_quick_profile_through_the_agent(api: Api, tmp_path: Path) -> None:
    t0 = time.monotonic()
    with agents(api, tmp_path, system="uvhttp", host="it-uvhttp"):
        run = post(api, "/api/v1/runs", {"system": "uvhttp", "ref": "HEAD", "profile": "quick"})
        stream = events(api, run["id"], timeout=600)
    print(f"uvhttp quick profile through the agent (build included): {time.monotonic() - t0:.0f} s")
    assert [d["status"] for k, d in stream if k == "state"][-1] == "completed", stream[-5:]
    assert sum(k == "progress" for k, _ in stream) >= 5
    detail = get(api, f"/api/v1/runs/{run['id']}")
    ours, ref = _split(detail["measurements"])
    assert {b for b, _ in ours} == {*BASIC, "response_size", "method"}
    for bench in BASIC:
        assert {(bench, metric) for metric in SHOWN} <= set(ours), bench
        assert all(ours[(bench, metric)]["n"] == 3 for metric in SHOWN)
        pct = [ours[(bench, f"latency_{q}_ms")]["median"] for q in ("p50", "p95", "p99", "p999")]
        assert pct == sorted(pct) and pct[0] > 0, (bench, pct)
        assert ours[(bench, "socket_errors")]["max"] == 0
        assert 0 < ours[(bench, "cpu_percent")]["median"] <= 110  # one core, tick rounding
        assert ref[(bench, "requests_per_second")]["median"] > 0
        ratio = ours[(bench, "nginx_rps_ratio")]
        assert ratio["min"] > 0 and ratio["n"] == 3
        samples = ", ".join(f"{s:.3f}" for s in ratio["samples"])
        print(f"{bench}: uvhttp/nginx req/s {ratio['value']:.3f} (repetitions {samples})")
    assert ours[("response_size", "transfer_mib_per_second")]["median"] > 0
    assert ours[("method", "requests_per_second")]["median"] > 0
    assert detail["configuration"]["nginx"] and detail["configuration"]["build_with_mimalloc"]


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_uvhttp_instructions_profile_counts_requests(api: Api, tmp_path: Path) -> None:
    # One scenario (GET /, 10,000 requests after a warm-up) keeps it to about half a minute.
    out = run_driver("uvhttp", tmp_path, "--benchmarks", "low_concurrency")
    assert "##benchdash progress 1/1 done" in out
    upload(api, "uvhttp", tmp_path / "result.json")
    run = latest_run(api, "uvhttp")
    found = {m["metric"]: m for m in run["measurements"] if m["benchmark"] == "low_concurrency"}
    assert set(found) == {"instructions_per_request", "estimated_cycles_per_request"}
    assert found["instructions_per_request"]["unit"] == "instructions"
    per = found["instructions_per_request"]["median"]
    assert 500 < per < 50_000  # parse + route + a prebuilt response: thousands of instructions
    assert run["measurements"][0]["parameters"]["requests"] == 10_000
    [summary] = get(api, f"/api/v1/runs/{run['id']}/profiles")
    assert (summary["kind"], summary["metric"]) == ("instructions", "instructions_per_request")
    assert summary["total"] == round(per * 10_000)
    profile = get(api, f"/api/v1/profiles/{summary['id']}")
    top = {c["name"]: c["value"] for c in profile["tree"]["children"]}
    assert top["main"] > 0.99 * summary["total"], top
    folded = urllib.request.urlopen(f"{api.url}/api/v1/profiles/{summary['id']}?format=folded")
    assert any(";on_read;" in line for line in folded.read().decode().splitlines())
