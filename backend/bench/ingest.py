"""Ingest throughput: N concurrent clients post 20-metric documents to the real API for a fixed
time; in the same run, a raw-SQL insert of the same rows gives the reference rate.

    .venv/bin/python backend/bench/ingest.py [--clients 4] [--seconds 10]

Prints uploads/s, p50/p99 latency, errors, the raw-SQL documents/s and the ratio.
"""

from __future__ import annotations

import argparse
import itertools
import json
import platform
import random
import statistics
import threading
import time
from typing import Any

import httpx
import psycopg
from _server import api, cli, scratch_database

METRICS = 20


def make_document(i: int, rng: random.Random) -> dict[str, Any]:
    """A document with one benchmark of 20 metrics, 5 samples each."""
    metrics = [
        {
            "name": f"m{k:02d}",
            "unit": "ns",
            "direction": "lower_is_better",
            "samples": [100 + k + rng.gauss(0, 0.5) for _ in range(5)],
        }
        for k in range(METRICS)
    ]
    return {
        "schema": "benchdash/v1",
        "system": "benchsys",
        "run": {
            "external_id": f"bench-{i}",
            "commit": f"{i:08x}",
            "branch": "main",
            "testbed": "bench",
        },
        "environment": {"os": "Linux"},
        "results": [{"benchmark": "ingest", "parameters": {"k": 1}, "metrics": metrics}],
    }


def run_clients(base: str, token: str, clients: int, seconds: float) -> tuple[list[float], int]:
    """Post documents from `clients` threads for `seconds`; return latencies (s) and errors."""
    counter = itertools.count()
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def worker(seed: int) -> None:
        nonlocal errors
        rng = random.Random(seed)
        with httpx.Client(
            base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=30
        ) as http:
            while time.monotonic() < stop:
                doc = make_document(next(counter), rng)
                t0 = time.perf_counter()
                r = http.post("/api/v1/results", json=doc)
                dt = time.perf_counter() - t0
                with lock:
                    latencies.append(dt)
                    errors += r.status_code != 201

    threads = [threading.Thread(target=worker, args=(s,)) for s in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, errors


def raw_sql_rate(db: str, documents: int) -> float:
    """Documents/s inserting the same rows (run + 20 measurements + 20 verdicts) in plain SQL."""
    url = db.replace("postgresql+psycopg://", "postgresql://")
    rng = random.Random(1)
    with psycopg.connect(url) as conn:
        ids = conn.execute(
            "SELECT b.id, b.system_id, br.id, t.id FROM benchmark b "
            "JOIN branch br ON br.system_id = b.system_id "
            "CROSS JOIN testbed t LIMIT 1"
        ).fetchone()
        assert ids is not None, "the API phase creates the benchmark first"
        bench, system, branch, testbed = ids
        metric_ids = [r[0] for r in conn.execute("SELECT id FROM metric ORDER BY name")]
        t0 = time.perf_counter()
        for i in range(documents):
            with conn.transaction():
                run = conn.execute(
                    "INSERT INTO run (system_id, branch_id, testbed_id, external_id, commit, "
                    "trigger, status, accepted, environment, configuration, created_at, "
                    "started_at) VALUES (%s,%s,%s,%s,%s,'ci','completed',true,%s,'{}',now(),"
                    "now()) RETURNING id",
                    (system, branch, testbed, f"raw-{i}", f"{i:08x}", json.dumps({"os": "Linux"})),
                ).fetchone()
                assert run is not None
                with conn.cursor() as cur:
                    rows = []
                    for m in metric_ids:
                        s = [100 + rng.gauss(0, 0.5) for _ in range(5)]
                        mean = statistics.fmean(s)
                        rows.append(
                            (
                                run[0],
                                bench,
                                m,
                                statistics.median(s),
                                s,
                                5,
                                mean,
                                statistics.median(s),
                                statistics.stdev(s),
                                min(s),
                                max(s),
                                statistics.stdev(s) / mean,
                                0,
                            )
                        )
                    cur.executemany(
                        "INSERT INTO measurement (run_id, benchmark_id, metric_id, value, "
                        "samples, n, "
                        "mean, median, stddev, min_value, max_value, cv, outliers_removed) "
                        "VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s) RETURNING id",
                        rows,
                        returning=True,
                    )
                    mids = []
                    while True:
                        row = cur.fetchone()
                        if row:
                            mids.append(row[0])
                        if not cur.nextset():
                            break
                    cur.executemany(
                        "INSERT INTO verdict (measurement_id, level, warn_threshold, "
                        "fail_threshold, "
                        "baseline_run_ids, explanation) VALUES (%s,'ok',5,10,'{}','')",
                        [(mid,) for mid in mids],
                    )
        return documents / (time.perf_counter() - t0)


def main() -> None:
    """Run both phases and print the figures."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--clients", type=int, default=4)
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--workers", type=int, default=2, help="uvicorn worker processes")
    args = p.parse_args()
    db = scratch_database("benchdash_bench_ingest")
    token = cli(db, "token", "create", "--system", "benchsys", "--scope", "upload")
    with api(db, workers=args.workers) as base:
        lat, errors = run_clients(base, token, args.clients, args.seconds)
    n = len(lat)
    lat.sort()
    rate = n / args.seconds
    raw = raw_sql_rate(db, max(n, 50))
    print(
        f"machine: {platform.machine()} {platform.processor() or ''} "
        f"{__import__('os').cpu_count()} cores, Python {platform.python_version()}"
    )
    print(
        f"API ingest: {n} uploads of {METRICS} metrics in {args.seconds:.0f} s from "
        f"{args.clients} clients ({args.workers} workers): {rate:.1f} uploads/s, "
        f"p50 {1000 * lat[n // 2]:.1f} ms, p99 {1000 * lat[min(n - 1, int(n * 0.99))]:.1f} ms, "
        f"errors {errors}"
    )
    print(f"raw SQL insert of the same rows: {raw:.1f} documents/s")
    print(f"ratio API / raw SQL: {rate / raw:.2f}")


if __name__ == "__main__":
    main()
