"""The demo's profiles: folded stacks for the two benchmarks an injected step slows, so the
demo's alerts name the function whose cost grew (root cause) and its runs have flame graphs.

relay's `encryption` (1 KiB) carries an instructions profile (Callgrind's counts are exact:
the same every run until the step), uvhttp's `medium_concurrency` a CPU profile in samples
(a sampler's counts vary by about 1 % a run). From the run of an injected step on, the
culprit stack's cost grows by what the step costs: the metric's shift, as a share of the
profile's total. Frame names are made up for the demo.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from benchdash.demo_data import H


@dataclass(frozen=True)
class DemoProfile:
    """A benchmark's profile before any step, and the stack a step makes costlier."""

    kind: str
    unit: str
    metric: str
    stacks: dict[str, int]
    culprit: str
    noise: float = 0.0  # relative spread of a sampled stack's weight


def _key(system: str, benchmark: str, params: dict[str, Any]) -> tuple[str, str, str]:
    return system, benchmark, repr(sorted(params.items()))


_RELAY = "encryption;relay::crypto::encrypt"
_UV = "uv_run;uv__io_poll;uv__stream_io;uv__read;server_on_read"
PROFILES: dict[tuple[str, str, str], DemoProfile] = {
    _key("relay", "encryption", {"input": 1000}): DemoProfile(
        kind="instructions",
        unit="instructions",
        metric="time",
        stacks={
            f"{_RELAY};relay::crypto::derive_key;sha2::compress256": 2_140,
            f"{_RELAY};aead::seal;aes::ctr32_encrypt_blocks": 23_816,
            f"{_RELAY};aead::seal;ghash::update_blocks": 9_604,
            f"{_RELAY};relay::crypto::fresh_nonce;rand_core::fill_bytes": 1_312,
            f"{_RELAY};relay::encoding::to_base64": 2_688,
            "encryption;criterion::Bencher::iter": 412,
        },
        culprit=f"{_RELAY};relay::crypto::derive_key;sha2::compress256",
    ),
    _key(
        "uvhttp", "medium_concurrency", {"threads": 4, "connections": 50, "duration_s": 10}
    ): DemoProfile(
        kind="cpu",
        unit="samples",
        metric="requests_per_second",
        stacks={
            f"{_UV};parser_execute;parser_on_header_field": 612,
            f"{_UV};parser_execute;parser_on_header_value": 588,
            f"{_UV};parser_execute;parser_on_message_complete;route_lookup": 344,
            f"{_UV};parser_execute;parser_on_message_complete;headers_find": 212,
            f"{_UV};parser_execute;parser_on_message_complete;respond;uv_write": 1_406,
            "uv_run;uv__io_poll;uv__stream_io;uv__write;writev": 1_122,
            "uv_run;uv__io_poll;epoll_wait": 498,
            "uv_run;uv__io_poll;uv__server_io;uv_accept": 96,
        },
        culprit=f"{_UV};parser_execute;parser_on_message_complete;headers_find",
        noise=0.01,
    ),
}


def profile_for(
    system: str,
    benchmark: str,
    params: dict[str, Any],
    *,
    shifts: dict[str, tuple[str, float]],
    rng: random.Random,
) -> dict[str, Any] | None:
    """The `profile` of a result entry, or None for a benchmark without one; `shifts` holds
    each metric's direction and multiplicative shift at this run (1.0: no step)."""
    found = PROFILES.get(_key(system, benchmark, params))
    if found is None:
        return None
    direction, shift = shifts[found.metric]
    cost = 1 / shift if direction == H else shift  # more time, or fewer requests a second
    extra = (cost - 1) * sum(found.stacks.values())
    lines = []
    for stack, weight in found.stacks.items():
        w = weight + (extra if stack == found.culprit else 0)
        if found.noise:
            w *= 1 + rng.gauss(0, found.noise)
        lines.append(f"{stack} {max(0, round(w))}")
    return {
        "kind": found.kind,
        "unit": found.unit,
        "metric": found.metric,
        "stacks": "\n".join(lines) + "\n",
    }
