"""Keep any amount of measurements within the server's limits, without losing their shape.

A harness may time a benchmark over hundreds of thousands of rounds; the server takes at most
100,000 samples per metric and a 5 MiB document. `spread` keeps a bounded set of samples at
evenly spaced ranks, so the minimum, the maximum and every quantile survive; `fit` lowers the
bound for a whole document until it fits the body limit.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

KEPT_SAMPLES = 10_000  # the most samples a metric keeps
FEWEST_KEPT = 5  # fit never goes below the seeds' minimum of rounds per scenario


class TooLarge(ValueError):
    """A document that stays over the limit even with the fewest samples per metric."""


def spread(values: Sequence[float], limit: int = KEPT_SAMPLES) -> list[float]:
    """`values` if there are at most `limit`, else `limit` of them evenly spread by rank.

    The kept values are the order statistics at evenly spaced ranks of the sorted values, so
    the minimum, the maximum and every quantile (median, quartiles) stay within 1/limit of
    the whole set's: the server's statistics of the samples are those of all the rounds.
    """
    if len(values) <= limit:
        return list(values)
    ordered, last = sorted(values), len(values) - 1
    return [ordered[round(i * last / (limit - 1))] for i in range(limit)]


def size(doc: Any) -> int:
    """Bytes of the document as sent (compact UTF-8 JSON, before any compression)."""
    return len(json.dumps(doc, allow_nan=False, separators=(",", ":")).encode("utf-8"))


def fit(doc: dict[str, Any], max_bytes: int) -> list[str]:
    """Halve the samples kept per metric until `doc` is at most `max_bytes`; say what was done.

    Changes `doc` in place. Raises TooLarge when FEWEST_KEPT samples per metric still do not
    fit: the document has too many benchmarks for one upload.
    """
    now = size(doc)
    if now <= max_bytes:
        return []
    metrics = [m for r in doc["results"] for m in r["metrics"]]
    keep = min(max((len(m.get("samples") or ()) for m in metrics), default=0), KEPT_SAMPLES)
    while now > max_bytes and keep > FEWEST_KEPT:
        keep = max(keep // 2, FEWEST_KEPT)
        for m in metrics:
            if len(m.get("samples") or ()) > keep:
                m["samples"] = spread(m["samples"], keep)
        now = size(doc)
    if now > max_bytes:
        raise TooLarge(
            f"{now:,} bytes even with {keep} samples per metric, over the server's limit of "
            f"{max_bytes:,}: upload the benchmarks in several parts"
        )
    return [
        f"the document was over {max_bytes:,} bytes: each metric keeps at most {keep} samples, "
        "spread by rank (minimum, maximum and quantiles kept)"
    ]
