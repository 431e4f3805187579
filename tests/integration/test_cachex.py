"""cachex's quick profile through the real agent into the real API (issues 3 and 5), and its
CPU profiles (issue 30)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.integration import goprofiles
from tests.integration.agents import agents, events, get, post
from tests.integration.conftest import ROOT, Api


def _median(m: dict[str, Any]) -> float:
    return float(m["median"])


def test_cachex_quick_profile_through_the_agent(api: Api, tmp_path: Path) -> None:
    t0 = time.monotonic()
    with agents(api, tmp_path, system="cachex", host="it-cachex"):
        run = post(api, "/api/v1/runs", {"system": "cachex", "ref": "HEAD", "profile": "quick"})
        stream = events(api, run["id"], timeout=400)
    took = time.monotonic() - t0
    print(f"cachex quick profile through the agent: {took:.0f} s")
    states = [d["status"] for k, d in stream if k == "state"]
    assert states[-1] == "completed", stream[-5:]
    assert sum(k == "progress" for k, _ in stream) >= 3
    detail = get(api, f"/api/v1/runs/{run['id']}")
    by = {(m["benchmark"], m["metric"]): m for m in detail["measurements"]}
    assert {b for b, _ in by} == {"high-performance", "cloud", "shared", "constrained"}
    assert _median(by[("high-performance", "errors")]) == 0
    assert _median(by[("high-performance", "hit_rate_pct")]) >= 99
    for scenario in ("high-performance", "cloud", "shared", "constrained"):
        assert by[(scenario, "db_utilization_pct")]["max"] <= 100
    assert _median(by[("high-performance", "ref_nosf_db_per_request_ratio")]) >= 10
    assert all(m["n"] == 3 for m in detail["measurements"])


def test_cachex_cpu_profile_is_stored_and_names_the_client(api: Api, tmp_path: Path) -> None:
    """Issue 30: the driver's CPU profile of a scenario lands with the run, through the API."""
    run_id = goprofiles.drive_and_upload(api, "cachex", "high-performance", tmp_path)
    listed, detail = goprofiles.profiles(api, run_id)
    assert [(p["benchmark"], p["kind"], p["unit"], p["metric"]) for p in listed] == [
        ("high-performance", "cpu", "nanoseconds", "qps")
    ]
    (summary,) = listed
    measured = {m["benchmark"]: m["parameters"] for m in detail["measurements"]}
    assert summary["parameters"] == measured["high-performance"]  # the measured variant
    assert summary["total"] >= 100_000_000  # >= 0.1 s of CPU in a 2 s closed-loop run
    profile = get(api, f"/api/v1/profiles/{summary['id']}")
    assert profile["tree"]["name"] == "all" and profile["tree"]["value"] == summary["total"]
    stacks = goprofiles.folded(api, summary["id"])
    assert sum(stacks.values()) == summary["total"] and len(stacks) == summary["stacks_count"]
    # The client under test and its harness, not a reference client (none ran) or an address.
    assert goprofiles.share(stacks, r"^benchdash\.dev/cachex[./]") >= 0.5
    assert goprofiles.share(stacks, r"^benchdash\.dev/cachex\.\(\*Client\[.*\]\)\.Get$") >= 0.05
    assert goprofiles.share(stacks, r"^0x[0-9a-f]+$|^\[unknown\]$") == 0
    top = profile["functions"][0]["name"]  # most self time: the Go runtime, std or cachex's code
    print(
        f"profile {summary['id']}: {summary['total'] / 1e6:.0f} ms CPU, "
        f"{summary['stacks_count']} stacks, most self time in {top}"
    )
    go_mod = ROOT / "systems/cachex/go.mod"
    assert goprofiles.built_from(goprofiles.go_package(top), go_mod, "benchdash.dev/cachex"), top
