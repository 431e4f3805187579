"""Series read latency: GET /api/v1/series in a database holding 1M measurements, next to the
raw SQL query of the same rows on the same PostgreSQL, measured in the same run.

    .venv/bin/python backend/bench/series.py [--runs 10000] [--series 100] [--repeat 20]

Reports the 1,000-point read (p50, p90, ratio to raw SQL), the same read answered 304 by its
ETag, and all 10,000 points of a series downsampled to 1,000.
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import statistics
import time
from datetime import UTC, datetime, timedelta

import httpx
import psycopg
from _months import ensure_months
from _server import api, embedded_stopped_after, scratch_database


def _level(measurement_id: int) -> str:
    """The verdict level of a loaded point: about one in a thousand failed."""
    return "fail" if measurement_id % 997 == 0 else "ok"


def load(url: str, runs: int, series: int) -> None:
    """COPY `runs` runs × `series` measurements (with verdicts) into an empty schema."""
    t0 = time.perf_counter()
    first = datetime(2020, 1, 1, tzinfo=UTC)
    ensure_months(url, first, first + timedelta(hours=runs))  # before any write: it locks them
    with psycopg.connect(url) as conn:
        conn.execute(
            "INSERT INTO system (id, slug, name, created_at) VALUES (1, 'big', 'big', now())"
        )
        conn.execute(
            "INSERT INTO branch (id, system_id, name, created_at) VALUES (1, 1, 'main', now())"
        )
        conn.execute("INSERT INTO testbed (id, name, created_at) VALUES (1, 'tb', now())")
        conn.execute(
            "INSERT INTO benchmark (id, system_id, name, parameters, params_key, created_at) "
            "SELECT g, 1, 'bench' || g, '{}', '{}', now() FROM generate_series(1, %s) g",
            (series,),
        )
        conn.execute(
            "INSERT INTO metric (id, system_id, name, unit, direction, warn_threshold, "
            "fail_threshold) VALUES (1, 1, 'time', 'ns', 'lower_is_better', 5, 10)"
        )
        conn.execute(
            "INSERT INTO series (id, system_id, benchmark_id, metric_id, branch_id, testbed_id) "
            "SELECT g, 1, g, 1, 1, 1 FROM generate_series(1, %s) g",
            (series,),
        )
        start = datetime(2020, 1, 1, tzinfo=UTC)
        with conn.cursor().copy(
            "COPY run (id, system_id, branch_id, testbed_id, external_id, commit, "
            "trigger, status, accepted, created_at, started_at) FROM STDIN"
        ) as cp:
            for r in range(1, runs + 1):
                t = (start + timedelta(hours=r)).isoformat()
                cp.write_row((r, 1, 1, 1, f"r{r}", f"{r:08x}", "ci", "completed", True, t, t))
        buf = io.StringIO()
        mid = 0
        with conn.cursor().copy(
            "COPY measurement (id, run_id, benchmark_id, metric_id, series_id, started_at, "
            "value, samples, n, mean, median, stddev, min_value, max_value, cv, "
            "outliers_removed, level) FROM STDIN"
        ) as cp:
            for r in range(1, runs + 1):
                t = (start + timedelta(hours=r)).isoformat()
                for b in range(1, series + 1):
                    mid += 1
                    v = 100.0 + (r % 17) * 0.1
                    level = _level(mid)
                    cp.write_row((mid, r, b, 1, b, t, v, [v], 1, v, v, 0.0, v, v, 0.0, 0, level))
        with conn.cursor().copy(
            "COPY verdict (measurement_id, started_at, level, baseline_value, baseline_run_ids, "
            "warn_threshold, fail_threshold, explanation) FROM STDIN"
        ) as cp:
            for m in range(1, mid + 1):
                t = (start + timedelta(hours=(m - 1) // series + 1)).isoformat()
                cp.write_row((m, t, _level(m), 100.0, [], 5.0, 10.0, ""))
        del buf
        for seq, table in (("run_id_seq", "run"), ("measurement_id_seq", "measurement")):
            conn.execute(f"SELECT setval('{seq}', (SELECT max(id) FROM {table}))")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")  # what autovacuum leaves behind a settled table
    print(f"loaded {runs * series:,} measurements in {time.perf_counter() - t0:.1f} s")


# The same rows as the endpoint, by the best plain query: the series key's index range scan.
RAW = """SELECT m.run_id, r.commit, m.started_at, m.value, m.min_value, m.max_value, m.stddev,
       m.n, v.level, v.baseline_value, v.change_pct, v.p_value
FROM measurement m JOIN run r ON r.id = m.run_id
LEFT JOIN verdict v ON v.measurement_id = m.id
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
    db = scratch_database("benchdash_bench_series")
    url = db.replace("postgresql+psycopg://", "postgresql://")
    load(url, args.runs, args.series)
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
