"""A system page of 300 series: GET /api/v1/series/batch (one request) beside the same run's
reference, 300 single GET /api/v1/series calls (the page's old path), on one database.

The batch is timed three ways: "kept", the page as read again while no run landed (each
series' points kept in series_chart with a stamp that still holds); "first read", with every
kept row dropped before each request (a page nobody read since a run landed and the server did
not refresh); and "after a run lands": a run of every series is uploaded through the API, the
server refreshes the kept points on its own once uploads pause (series/refresh.py: how long
until every series holds the new run is printed), then the page is read.

    .venv/bin/python backend/bench/page.py [--runs 500] [--series 300] [--points 200]
                                          [--repeat 10]

The database is COPY-loaded as in series.py (runs × series measurements, one metric). Reports
the median and p90 of each path, their ratio, and the wire size per point of each answer.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from datetime import timedelta

import httpx
import psycopg
from _bulk import Shape, database, plain
from _server import api, cli, embedded_stopped_after
from series import START, timed


def main() -> None:
    """Load, then time the batch and the 300 single reads, alternating, in one run."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--runs", type=int, default=500)
    p.add_argument("--series", type=int, default=300)
    p.add_argument("--points", type=int, default=200, help="max_points per series")
    p.add_argument("--repeat", type=int, default=10)
    args = p.parse_args()
    shape = Shape(args.runs, args.series, START, timedelta(hours=1))
    db = database("benchdash_bench_page", shape, reuse=False)
    batch = {"system": "big", "max_points": args.points, "limit": 1000}
    names = [f"bench{b}" for b in range(1, args.series + 1)]

    def single(http: httpx.Client, name: str) -> httpx.Response:
        query = {"system": "big", "benchmark": name, "metric": "time", "max_points": args.points}
        return http.get("/api/v1/series", params=query).raise_for_status()

    with api(db) as base, httpx.Client(base_url=base, timeout=60) as http:
        answer = http.get("/api/v1/series/batch", params=batch).raise_for_status()
        body = answer.json()
        assert len(body["series"]) == args.series, len(body["series"])
        batch_points = sum(len(s["points"]["run"]) for s in body["series"])
        one = single(http, names[41])
        one_points = len(one.json()["points"])
        batched = timed(
            lambda: http.get("/api/v1/series/batch", params=batch).raise_for_status(),
            args.repeat,
        )
        firsts = []
        with psycopg.connect(plain(db), autocommit=True) as conn:
            for _ in range(args.repeat):
                conn.execute("DELETE FROM series_chart")  # as if a run had landed on each
                t0 = time.perf_counter()
                http.get("/api/v1/series/batch", params=batch).raise_for_status()
                firsts.append(1000 * (time.perf_counter() - t0))
        singles = timed(lambda: [single(http, n) for n in names], max(3, args.repeat // 3))
        etag = answer.headers["etag"]
        cached = timed(
            lambda: http.get("/api/v1/series/batch", params=batch, headers={"If-None-Match": etag}),
            args.repeat,
        )
        landed, after, then = run_lands(http, db, args.series, args.runs)  # last: ETag moves
    b, s, c, f = (statistics.median(x) for x in (batched, singles, cached, firsts))
    print(
        f"machine: {platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print(
        f"page of {args.series} series × up to {args.points} points "
        f"({args.runs * args.series:,} measurements stored)"
    )
    print(
        f"batch, one request, points kept: median {b:.1f} ms "
        f"(p90 {sorted(batched)[int(len(batched) * 0.9)]:.1f} ms), "
        f"{len(answer.content):,} bytes, {batch_points:,} points, "
        f"{len(answer.content) / batch_points:.1f} bytes/point"
    )
    print(
        f"batch, one request, first read (kept points dropped before each): median {f:.1f} ms "
        f"(p90 {sorted(firsts)[int(len(firsts) * 0.9)]:.1f} ms)"
    )
    print(
        f"batch after a run landed on every series: the server's refresh done {landed:.1f} s "
        f"after the upload (2 s of it waiting for uploads to pause); the page then: "
        f"{after:.1f} ms, median of 5 {then:.1f} ms"
    )
    print(f"batch answered 304 by its ETag: median {c:.1f} ms")
    print(
        f"reference, {args.series} single GET /series: median {s:.1f} ms; "
        f"{len(one.content) / one_points:.1f} bytes/point "
        f"({one_points} points, {len(one.content):,} bytes)"
    )
    print(f"ratio reference / batch: {s / b:.1f}x kept, {s / f:.1f}x first read")


def run_lands(http: httpx.Client, db: str, series: int, runs: int) -> tuple[float, float, float]:
    """Upload one run of every series; seconds until the server's refresh kept all of them,
    the first page read (ms) after it and the median of five."""
    token = cli(db, "token", "create", "--system", "big", "--scope", "upload").split()[-1]
    metric = {"name": "time", "unit": "ns", "direction": "lower_is_better", "value": 101.0}
    document = {
        "schema": "benchdash/v1",
        "system": "big",
        "run": {"external_id": "page-bench-landed", "commit": "feedface", "testbed": "tb"},
        "results": [{"benchmark": f"bench{b}", "metrics": [metric]} for b in range(1, series + 1)],
    }
    headers = {"Authorization": f"Bearer {token}"}
    http.post("/api/v1/results", json=document, headers=headers, timeout=120).raise_for_status()
    t0 = time.perf_counter()
    with psycopg.connect(plain(db), autocommit=True) as conn:
        while time.perf_counter() - t0 < 60:
            fresh = conn.execute(
                "SELECT count(*) FROM series_chart WHERE split_part(stamp, ':', 1) = %s",
                (str(runs + 1),),
            ).fetchone()
            if fresh and fresh[0] == series:
                break
            time.sleep(0.05)
        else:
            raise SystemExit("the server did not refresh the kept points within 60 s")
    landed = time.perf_counter() - t0
    reads = []
    for _ in range(5):
        t1 = time.perf_counter()
        page = {"system": "big", "max_points": 200, "limit": 1000}
        http.get("/api/v1/series/batch", params=page).raise_for_status()
        reads.append(1000 * (time.perf_counter() - t1))
    return landed, reads[0], statistics.median(reads)


if __name__ == "__main__":
    with embedded_stopped_after():
        main()
