"""cachex's quick profile through the real agent into the real API (issues 3 and 5)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.integration.agents import agents, events, get, post
from tests.integration.conftest import Api


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
