"""1,000-point series reads with 20,000,000 measurements stored (monthly partitions), beside raw
SQL of the same rows on the same PostgreSQL, in one run. A benchmark, not a test.

    .venv/bin/python backend/bench/bigread.py [--measurements 20000000] [--series 1000]
                                              [--repeat 300] [--reuse] [--drop]
                                              [--form columns|points]

Loads runs × series measurements, each with its verdict, with COPY into a scratch database
(`benchdash_bench_bigread_<N>`): one run every 78 minutes (20,000 runs: about three years,
37 months), the months' partitions made first by the app's own maintenance code
(`results.partitions.ensure`). Foreign-key triggers are off during the load when the role may
do so (`session_replication_role = replica`; the generated rows are consistent), as a bulk
load does; the indexes are maintained. Then VACUUM ANALYZE (what autovacuum leaves behind) and
`benchdash-server reorder` (the closed months rewritten in series order, as the server's hourly
maintenance leaves them; its time is printed).

Reads: each round picks a series and a window of 1,000 consecutive runs (seeded, spread over
the three years), GETs it from `benchdash-server serve` (one keep-alive connection) and runs
the raw SQL of the same rows on one psycopg connection, alternately (who goes first alternates
too: the second finds the rows' pages in memory), so both see the same machine. Reports load
time, disk size, p50/p90/p99/max of both and their ratio, and the EXPLAIN line that shows the
partitions pruned. `--reuse` keeps a database a previous run
loaded completely; `--drop` drops it at the end.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import time
from datetime import UTC, datetime, timedelta

import httpx
import psycopg
from _bulk import Shape, database
from _server import CLI, api, embedded_stopped_after
from series import RAW

START = datetime(2023, 11, 1, tzinfo=UTC)
STEP = timedelta(minutes=78)


def sizes(conn: psycopg.Connection) -> str:
    """Disk use: the database, measurement (all partitions, with indexes), verdict."""
    row = conn.execute(
        "SELECT pg_size_pretty(pg_database_size(current_database())), "
        "pg_size_pretty(sum(pg_total_relation_size(inhrelid))), count(*), "
        "pg_size_pretty(pg_total_relation_size('verdict')) "
        "FROM pg_inherits WHERE inhparent = 'measurement'::regclass"
    ).fetchone()
    assert row
    return f"database {row[0]}, measurement {row[1]} in {row[2]} partitions, verdict {row[3]}"


def pct(xs: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of xs."""
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> None:
    """Load (or reuse), then time the endpoint and the raw query on the same windows."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--measurements", type=int, default=20_000_000)
    p.add_argument("--series", type=int, default=1000)
    p.add_argument("--repeat", type=int, default=300)
    p.add_argument("--reuse", action="store_true")
    p.add_argument("--drop", action="store_true")
    p.add_argument(
        "--form", choices=("columns", "points"), default="columns",
        help="the answer's form: columns (the UI's, default) or points (one object a point)",
    )  # fmt: skip
    args = p.parse_args()
    runs = args.measurements // args.series
    name = f"benchdash_bench_bigread_{args.measurements}"
    db = database(name, Shape(runs, args.series, START, STEP), args.reuse)
    url = db.replace("postgresql+psycopg://", "postgresql://")
    rng = random.Random(27)
    picks = [(rng.randint(1, args.series), rng.randint(1, runs - 999)) for _ in range(args.repeat)]
    endpoint: list[float] = []
    raw: list[float] = []
    with api(db) as base, httpx.Client(base_url=base) as http, psycopg.connect(url) as conn:
        print(sizes(conn))
        for i, (b, first) in enumerate([picks[0], *picks]):
            since, until = START + STEP * first, START + STEP * (first + 999)
            params = {
                "system": "big",
                "benchmark": f"bench{b}",
                "metric": "time",
                "from": since.isoformat(),
                "to": until.isoformat(),
                "max_points": 1000,
                "form": args.form,
            }
            # Who goes first alternates: the second reads pages the first brought into memory.
            t0 = time.perf_counter()
            rows = conn.execute(RAW, (b, since, until)).fetchall() if i % 2 else []
            t1 = time.perf_counter()
            r = http.get("/api/v1/series", params=params)
            t2 = time.perf_counter()
            rows = rows or conn.execute(RAW, (b, since, until)).fetchall()
            t3 = time.perf_counter()
            got = r.json()
            points = got["points"] if args.form == "points" else got["columns"]["run_id"]
            assert r.status_code == 200 and len(points) == len(rows) == 1000, r.text
            if i:  # the first round warms both up
                endpoint.append(1000 * (t2 - t1))
                raw.append(1000 * ((t1 - t0) if i % 2 else (t3 - t2)))
        b, first = picks[0]
        plan = conn.execute(
            "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) " + RAW,
            (b, START + STEP * first, START + STEP * (first + 999)),
        ).fetchall()
    print(f"machine: {platform.machine()} {os.cpu_count()} cores, shared with other work now; "
          f"load average {os.getloadavg()[0]:.1f}; Python {platform.python_version()}")  # fmt: skip
    print("raw SQL plan (partitions):")
    for (line,) in plan:
        if "Scan" in line or "Append" in line or "Subplans" in line:
            print("   ", line.strip())
    for label, xs in ((f"series endpoint, form={args.form}", endpoint), ("raw SQL", raw)):
        print(
            f"{label}, 1,000 points at {args.measurements:,} stored ({len(xs)} reads): "
            f"p50 {pct(xs, 0.5):.1f} ms, p90 {pct(xs, 0.9):.1f} ms, p99 {pct(xs, 0.99):.1f} ms, "
            f"max {max(xs):.1f} ms"
        )
    ratio, tail = statistics.median(endpoint) / statistics.median(raw), pct(endpoint, 0.99)
    print(f"ratio endpoint / raw SQL: p50 {ratio:.1f}x, p99 {tail / pct(raw, 0.99):.1f}x")
    if args.drop:
        subprocess.run([CLI, "scratch-db", name, "--drop"], check=True, capture_output=True)


if __name__ == "__main__":
    with embedded_stopped_after():
        main()
