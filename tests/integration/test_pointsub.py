"""pointsub's quick profile through the real agent into the real API (issue 15 "Must show")."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.integration.agents import agents, events, get, post
from tests.integration.conftest import Api

LOCAL = ["throughput/1kb", "concurrent/20", "buffer/1mb"]
NETWORK = ["network/delay-100ms", "network/loss-5pct", "network/extreme"]
SEED_METRICS = {
    "throughput",
    "messages_per_second",
    "latency_avg_us",
    "latency_p50_us",
    "latency_p90_us",
    "latency_p99_us",
    "latency_max_us",
    "errors",
    "success_pct",
    "memory_mb",
}


def _key(m: dict[str, Any]) -> tuple[str, str]:
    """(benchmark, metric), the reference keyed by the scenario it stands beside."""
    if m["benchmark"] == "tcp_reference":
        return f"tcp_reference:{m['parameters']['scenario']}", m["metric"]
    return m["benchmark"], m["metric"]


def test_pointsub_quick_profile_through_the_agent(api: Api, tmp_path: Path) -> None:
    t0 = time.monotonic()
    with agents(api, tmp_path, system="pointsub", host="it-pointsub"):
        run = post(api, "/api/v1/runs", {"system": "pointsub", "ref": "HEAD", "profile": "quick"})
        stream = events(api, run["id"], timeout=900)
    print(
        f"pointsub quick profile through the agent (build included): {time.monotonic() - t0:.0f} s"
    )
    assert [d["status"] for k, d in stream if k == "state"][-1] == "completed", stream[-5:]
    assert sum(k == "progress" for k, _ in stream) >= len(LOCAL + NETWORK)
    detail = get(api, f"/api/v1/runs/{run['id']}")
    by = {_key(m): m for m in detail["measurements"]}
    benchmarks = {b for b, _ in by}
    assert benchmarks == {*LOCAL, *NETWORK, *(f"tcp_reference:{s}" for s in LOCAL)}
    assert {b.split("/")[0] for b in benchmarks if "/" in b and ":" not in b} == {
        "throughput",
        "concurrent",
        "buffer",
        "network",
    }
    for b in LOCAL + NETWORK:
        assert {metric for bench, metric in by if bench == b} >= SEED_METRICS, b
    for b in LOCAL:  # no loss simulated: every message acknowledged, every repetition
        assert by[(b, "success_pct")]["min"] == 100 and by[(b, "errors")]["max"] == 0, b
        assert by[(b, "throughput")]["n"] == 3 and by[(b, "tcp_ratio")]["min"] > 0, b
        assert by[(f"tcp_reference:{b}", "success_pct")]["min"] == 100, b
    # The configured network conditions show in the results.
    delay = by[("network/delay-100ms", "latency_min_us")]
    assert delay["parameters"]["latency_min_ms"] == 100
    assert delay["min"] >= 200_000  # 100 ms each way on every round trip
    assert by[("network/delay-100ms", "success_pct")]["min"] == 100
    loss = by[("network/loss-5pct", "sim_loss_pct")]
    assert loss["parameters"]["loss_pct"] == 5 and 2 <= loss["median"] <= 9
    extreme = by[("network/extreme", "sim_loss_pct")]
    assert extreme["parameters"]["loss_pct"] == 20 and 10 <= extreme["median"] <= 32
    assert by[("network/loss-5pct", "sim_corrupt_pct")]["max"] > 0
    assert by[("network/loss-5pct", "latency_p50_us")]["median"] > 100_000
