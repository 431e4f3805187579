"""pointsub's quick profile through the real agent into the real API (issue 15 "Must show"), and
its CPU profiles (issue 30)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.integration import goprofiles
from tests.integration.agents import agents, events, get, post
from tests.integration.conftest import ROOT, Api

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


def test_pointsub_cpu_profile_is_stored_and_shows_the_libp2p_stack(
    api: Api, tmp_path: Path
) -> None:
    """Issue 30: the driver's CPU profile of a scenario lands with the run, through the API,
    on the libp2p result (not on its TCP reference)."""
    run_id = goprofiles.drive_and_upload(api, "pointsub", "throughput/1kb", tmp_path)
    listed, detail = goprofiles.profiles(api, run_id)
    assert [(p["benchmark"], p["kind"], p["unit"], p["metric"]) for p in listed] == [
        ("throughput/1kb", "cpu", "nanoseconds", "throughput")
    ]
    (summary,) = listed
    measured = {m["benchmark"]: m["parameters"] for m in detail["measurements"]}
    assert summary["parameters"] == measured["throughput/1kb"]  # the measured variant
    assert summary["parameters"]["mode"] == "saturate" and "tcp_reference" in measured
    assert summary["total"] >= 200_000_000  # a 2 s saturating run keeps both ends busy
    stacks = goprofiles.folded(api, summary["id"])
    assert sum(stacks.values()) == summary["total"]
    # Noise encryption and yamux: the libp2p stack ran, the profile is not the TCP reference's.
    assert goprofiles.share(stacks, r"^golang\.org/x/crypto/chacha20poly1305\.") > 0.02
    assert goprofiles.share(stacks, r"^github\.com/libp2p/go-yamux/") > 0.1
    assert goprofiles.share(stacks, r"^benchdash\.dev/pointsub[./]") > 0.05
    top = get(api, f"/api/v1/profiles/{summary['id']}")["functions"][0]["name"]
    print(
        f"profile {summary['id']}: {summary['total'] / 1e6:.0f} ms CPU, "
        f"{summary['stacks_count']} stacks, most self time in {top}"
    )
    go_mod = ROOT / "systems/pointsub/go.mod"
    assert goprofiles.built_from(goprofiles.go_package(top), go_mod, "benchdash.dev/pointsub"), top
