"""uvhttp's quick profile through the real agent into the real API (issue 13 "Must show")."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.integration.agents import agents, events, get, post
from tests.integration.conftest import Api

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
