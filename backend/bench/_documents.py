"""The documents ingest.py sends: the streams real CI jobs send (tests/fixtures/streams.py).

One document = one CI run of a 20-metric job: quiet timers (±0.1 %) and noisy ones (±5 %),
integer counters sent as JSON integers, counts that stay 0, a bimodal timer, throughput where
higher is better, some metrics with 3, 5 or 10 samples and the rest values only.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # backend/: the tests package
from tests.fixtures.streams import Bench, Kind, stream_document

HIGHER = "higher_is_better"


def user_job(step_at: int | None = None) -> tuple[Bench, ...]:
    """The 20 metrics of one CI job; with `step_at`, three of them step 15 % worse there."""
    s = step_at
    return (
        Bench(
            name="parse_request",
            parameters={"size": "1KiB"},
            kinds=(
                Kind(name="time_ns", unit="ns", center=812.0, noise=0.001, step_at=s),
                Kind(name="time_p99_ns", unit="ns", center=1290.0, noise=0.05),
                Kind(name="allocs", unit="allocs/op", center=14, integer=True),
                Kind(name="bytes", unit="B/op", center=2048, integer=True, step_at=s),
                Kind(name="errors", unit="errors", center=0, integer=True),
            ),
        ),
        Bench(
            name="serve",
            parameters={"connections": 50, "threads": 4},
            kinds=(
                Kind(
                    name="requests_per_second",
                    unit="req/s",
                    direction=HIGHER,
                    center=16544.0,
                    noise=0.05,
                    samples=5,
                    step_at=s,
                ),
                Kind(name="latency_p50_ms", center=2.9, noise=0.001, samples=3),
                Kind(name="latency_p99_ms", center=8.2, noise=0.05, samples=10),
                Kind(name="timeouts", unit="count", center=0, integer=True, samples=5),
                Kind(name="transfer", unit="MB/s", direction=HIGHER, center=21.5, noise=0.001),
            ),
        ),
        Bench(
            name="cache_get",
            kinds=(
                Kind(name="hit_ns", unit="ns", center=45.0, noise=0.001, samples=10),
                Kind(name="miss_ns", unit="ns", center=780.0, modes=(1.0, 1.22), noise=0.001),
                Kind(name="gc_pauses", unit="count", center=3, integer=True, noise=0.2),
                Kind(name="hit_rate", unit="%", direction=HIGHER, center=93.4, noise=0.001),
                Kind(name="evictions", unit="count", center=0, integer=True),
            ),
        ),
        Bench(
            name="json_roundtrip",
            parameters={"doc": "large"},
            kinds=(
                Kind(name="encode_us", unit="us", center=312.0, noise=0.05, samples=3),
                Kind(name="decode_us", unit="us", center=488.0, noise=0.001),
                Kind(name="throughput", unit="MiB/s", direction=HIGHER, center=640.0, noise=0.05),
                Kind(name="retries", unit="count", center=0, integer=True),
                Kind(name="peak_rss", unit="MiB", center=58, integer=True, noise=0.002),
            ),
        ),
    )


def document(job: tuple[Bench, ...], stream: str, i: int, rng: random.Random) -> dict[str, Any]:
    """Run i of one client's stream; each stream has a testbed (so series) of its own."""
    return stream_document(job, i, rng, system="benchsys", stream=stream, testbed=stream)
