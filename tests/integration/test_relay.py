"""relay's quick profile through the real agent into the real API (issue 6 "Must show")."""

from __future__ import annotations

import time
from pathlib import Path

from tests.integration.agents import agents, events, get, post
from tests.integration.conftest import Api

CRYPTO = [
    *(f"encryption/{n}" for n in (10, 100, 1000, 10000)),
    *(f"decryption/{n}" for n in (10, 100, 1000, 10000)),
    *(f"decryption_uncached/{n}" for n in (10, 100, 1000, 10000)),
    "decryption_with_cache/first_decrypt_cache_miss",
    "decryption_with_cache/second_decrypt_cache_hit",
    "key_derivation/scrypt_derive_key",
    "key_derivation/cached_key",
]
SERIALIZATION = [
    "simple_serialize",
    "simple_deserialize",
    "complex_serialize",
    "complex_deserialize",
    *(f"sse_parsing/{e}" for e in ("message_start", "content_block_delta", "message_delta")),
    *(f"large_array/{n}" for n in (10, 100, 1000)),
]


def _id(m: dict[str, object]) -> str:
    params = m["parameters"]
    assert isinstance(params, dict)
    return f"{m['benchmark']}/{params['input']}" if "input" in params else str(m["benchmark"])


def test_relay_quick_profile_through_the_agent(api: Api, tmp_path: Path) -> None:
    t0 = time.monotonic()
    with agents(api, tmp_path, system="relay", host="it-relay"):
        run = post(api, "/api/v1/runs", {"system": "relay", "ref": "HEAD", "profile": "quick"})
        stream = events(api, run["id"], timeout=900)
    print(f"relay quick profile through the agent (build included): {time.monotonic() - t0:.0f} s")
    assert [d["status"] for k, d in stream if k == "state"][-1] == "completed", stream[-5:]
    detail = get(api, f"/api/v1/runs/{run['id']}")
    ids = {_id(m) for m in detail["measurements"] if m["metric"] == "time"}
    assert set(CRYPTO + SERIALIZATION) <= ids and len(ids) >= 23
    ratios = [m for m in detail["measurements"] if m["metric"] == "openssl_ratio"]
    assert {_id(m) for m in ratios} >= {f"encryption/{n}" for n in (10, 100, 1000, 10000)}
    assert all(m["value"] > 0 for m in ratios)
    thr = {
        (_id(m), m["unit"]) for m in detail["measurements"] if m["metric"].startswith("throughput")
    }
    assert ("encryption/1000", "bytes/s") in thr and ("large_array/100", "elements/s") in thr
