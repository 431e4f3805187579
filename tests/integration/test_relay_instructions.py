"""relay's instrumented profile (Callgrind through Gungraun) through the real agent into the API."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from tests.integration.agents import agents, events, get, post
from tests.integration.conftest import ROOT, Api

IDS = {
    *(f"encryption/{n}" for n in (10, 1000, 10000)),
    *(f"decryption_uncached/{n}" for n in (10, 1000, 10000)),
    "simple_serialize",
    "complex_deserialize",
    "sse_parsing/message_start",
    "sse_parsing/content_block_delta",
}


def _id(m: dict[str, object]) -> str:
    params = m["parameters"]
    assert isinstance(params, dict)
    return f"{m['benchmark']}/{params['input']}" if "input" in params else str(m["benchmark"])


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_relay_instructions_profile_through_the_agent(api: Api, tmp_path: Path) -> None:
    t0 = time.monotonic()
    # The checkout's own target folder: the crates are compiled once, not per test run.
    env = {"CARGO_TARGET_DIR": str(ROOT / "systems" / "relay" / "target")}
    with agents(api, tmp_path, system="relay", host="it-relay-instr", env=env):
        body = {"system": "relay", "ref": "HEAD", "profile": "instructions"}
        run = post(api, "/api/v1/runs", body)
        stream = events(api, run["id"], timeout=1500)
    print(f"relay instructions profile through the agent: {time.monotonic() - t0:.0f} s")
    assert [d["status"] for k, d in stream if k == "state"][-1] == "completed", stream[-5:]
    detail = get(api, f"/api/v1/runs/{run['id']}")
    counts = {
        (_id(m), m["metric"]): (m["value"], m["unit"])
        for m in detail["measurements"]
        if m["metric"] in ("instructions", "estimated_cycles")
    }
    assert {i for i, _ in counts} == IDS
    assert all(counts[(i, "instructions")][1] == "instructions" for i in IDS)
    assert all(counts[(i, "estimated_cycles")][1] == "cycles" for i in IDS)
    # No wall-clock metric in this profile, and the counts grow with the input.
    assert {m["metric"] for m in detail["measurements"]} == {"instructions", "estimated_cycles"}
    small, large = (counts[(f"encryption/{n}", "instructions")][0] for n in (10, 10000))
    assert 0 < small < large
