"""Series read latency: GET /api/v1/series in a database holding 1M measurements, next to the
raw SQL query of the same rows on the same PostgreSQL, measured in the same run.

    .venv/bin/python backend/bench/series.py [--runs 10000] [--series 100] [--repeat 20]

Reports the 1,000-point read (p50, p90, ratio to raw SQL), the same read answered 304 by its
ETag, and all 10,000 points of a series downsampled to 1,000.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from datetime import UTC, datetime, timedelta

import httpx
import psycopg
from _bulk import Shape, database, plain
from _server import api, embedded_stopped_after

START = datetime(2020, 1, 1, tzinfo=UTC)  # run r starts r hours later

# The same rows as the endpoint, by the best plain query: the series key's index range scan
# (the chart's verdict fields are the measurement's copies, migration 0019).
RAW = """SELECT m.run_id, r.commit, m.started_at, m.value, m.min_value, m.max_value, m.stddev,
       m.n, m.level, m.baseline_value, m.change_pct, m.p_value
FROM measurement m JOIN run r ON r.id = m.run_id
WHERE m.series_id = %s AND m.started_at >= %s AND m.started_at <= %s
ORDER BY m.started_at, m.run_id"""


def timed(fn, repeat: int) -> list[float]:  # type: ignore[no-untyped-def]
    """Wall times (ms) of `repeat` calls after one warm-up."""
    fn()
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(1000 * (time.perf_counter() - t0))
    return out


def main() -> None:
    """Load, then time the endpoint and the raw query on the same 1,000 points."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--runs", type=int, default=10_000)
    p.add_argument("--series", type=int, default=100)
    p.add_argument("--repeat", type=int, default=20)
    args = p.parse_args()
    shape = Shape(args.runs, args.series, START, timedelta(hours=1))
    db = database("benchdash_bench_series", shape, reuse=False)
    url = plain(db)
    since = datetime(2020, 1, 1, tzinfo=UTC) + timedelta(hours=1)
    until = since + timedelta(hours=999)
    params = {
        "system": "big",
        "benchmark": "bench42",
        "metric": "time",
        "from": since.isoformat(),
        "to": until.isoformat(),
        "max_points": 1000,
    }
    with api(db) as base, httpx.Client(base_url=base) as http, psycopg.connect(url) as conn:
        first = http.get("/api/v1/series", params=params).json()
        assert len(first["points"]) == 1000, first.get("detail")
        endpoint = timed(
            lambda: http.get("/api/v1/series", params=params).raise_for_status(), args.repeat
        )
        etag = http.get("/api/v1/series", params=params).headers["etag"]

        def not_modified() -> None:
            r = http.get("/api/v1/series", params=params, headers={"If-None-Match": etag})
            assert r.status_code == 304, r.status_code

        cached = timed(not_modified, args.repeat)
        raw = timed(lambda: conn.execute(RAW, (42, since, until)).fetchall(), args.repeat)
        full = dict(params, max_points=1000)
        full.pop("from")
        full.pop("to")
        downsampled = timed(
            lambda: http.get("/api/v1/series", params=full).raise_for_status(), args.repeat
        )
    e, r, d, c = (statistics.median(x) for x in (endpoint, raw, downsampled, cached))
    print(
        f"machine: {platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print(
        f"series endpoint, 1,000 points: median {e:.1f} ms (p90 "
        f"{sorted(endpoint)[int(len(endpoint) * 0.9)]:.1f} ms)"
    )
    print(f"raw SQL, same 1,000 rows: median {r:.1f} ms")
    print(f"series endpoint answered 304 by its ETag: median {c:.1f} ms")
    print(f"ratio endpoint / raw SQL: {e / r:.1f}x")
    print(f"series endpoint, all {args.runs:,} points downsampled to 1,000: median {d:.1f} ms")


if __name__ == "__main__":
    with embedded_stopped_after():
        main()
