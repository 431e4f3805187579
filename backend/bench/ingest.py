"""Ingest throughput of the real API against PostgreSQL's own floor, measured in one run.

    .venv/bin/python backend/bench/ingest.py [--clients 4] [--seconds 10] [--workers 1,2]
                                            [--stored 10000,1000000]

Load: N client processes, one keep-alive connection each, post 20-metric documents for a
fixed time, first with values only, then with 5 samples per metric; verdicts are computed
as in production. Reference, same PostgreSQL, same N clients, same time: `pgbench` running
one transaction = one 20-row multi-row INSERT into a table shaped like `measurement`.
Repeated with the database holding each `--stored` count of measurements (COPY-loaded into
other series first). Prints uploads/s, p50/p99, errors and the ratio to the floor.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import platform
import random
import re
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg
from _preload import preload
from _server import api, cli, scratch_database

METRICS = 20
FLOOR_TABLE = """CREATE TABLE IF NOT EXISTS bench_floor (
  id bigserial PRIMARY KEY, run_id int, benchmark_id int, metric_id int, value float8,
  samples float8[], n int, mean float8, median float8, stddev float8, min_value float8,
  max_value float8, cv float8, outliers_removed int)"""


def make_document(tag: str, i: int, rng: random.Random, samples: bool) -> dict[str, Any]:
    """One benchmark with 20 metrics: a value each, or 5 samples each."""
    metrics = []
    for k in range(METRICS):
        m: dict[str, Any] = {"name": f"m{k:02d}", "unit": "ns", "direction": "lower_is_better"}
        if samples:
            m["samples"] = [100 + k + rng.gauss(0, 0.5) for _ in range(5)]
        else:
            m["value"] = 100 + k + rng.gauss(0, 0.5)
        metrics.append(m)
    return {
        "schema": "benchdash/v1",
        "system": "benchsys",
        "run": {"external_id": f"{tag}-{i}", "commit": f"{i:08x}", "testbed": "bench"},
        "environment": {"os": "Linux"},
        "results": [{"benchmark": "ingest", "parameters": {"k": 1}, "metrics": metrics}],
    }


def client(base: str, token: str, tag: str, seconds: float, samples: bool, out: Any) -> None:
    """One client process: one keep-alive connection, post until the time is up."""
    rng = random.Random(tag)
    latencies: list[float] = []
    errors = 0
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=base, headers=headers, timeout=60) as http:
        stop = time.monotonic() + seconds
        i = 0
        while time.monotonic() < stop:
            doc = make_document(tag, i, rng, samples)
            t0 = time.perf_counter()
            r = http.post("/api/v1/results", json=doc)
            latencies.append(time.perf_counter() - t0)
            errors += r.status_code != 201
            i += 1
    out.put((latencies, errors))


def load_api(base: str, token: str, clients: int, seconds: float, samples: bool, tag: str) -> str:
    """Run the clients; return a one-line summary."""
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    procs = [
        ctx.Process(target=client, args=(base, token, f"{tag}-{c}", seconds, samples, queue))
        for c in range(clients)
    ]
    for p in procs:
        p.start()
    try:
        results = [queue.get(timeout=seconds + 120) for _ in procs]
    finally:
        for p in procs:
            p.join(timeout=10)
            if p.is_alive():
                p.kill()
    lat = sorted(x for lats, _ in results for x in lats)
    errors = sum(e for _, e in results)
    n = len(lat)
    rate = n / seconds
    p50, p99 = 1000 * lat[n // 2], 1000 * lat[min(n - 1, int(n * 0.99))]
    return f"{rate:.1f} uploads/s, p50 {p50:.1f} ms, p99 {p99:.1f} ms, errors {errors}|{rate}"


def pgbench(url: str, clients: int, seconds: float) -> float:
    """Transactions/s of one 20-row multi-row INSERT per transaction (PostgreSQL's floor)."""
    import pgserver  # the embedded server's wheel ships pgbench

    binary = Path(pgserver.__file__).parent / "pginstall" / "bin" / "pgbench"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(FLOOR_TABLE)
    row = "(1, 1, 1, 100.5, '{100.5}', 1, 100.5, 100.5, 0, 100.5, 100.5, 0, 0)"
    sql = (
        "INSERT INTO bench_floor (run_id, benchmark_id, metric_id, value, samples, n, mean, "
        "median, stddev, min_value, max_value, cv, outliers_removed) VALUES "
        + ", ".join([row] * METRICS)
        + ";\n"
    )
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as f:
        f.write(sql)
    try:
        out = subprocess.run(
            [
                str(binary),
                "-n",
                "-c",
                str(clients),
                "-j",
                str(clients),
                "-T",
                str(int(seconds)),
                "-f",
                f.name,
                url,
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    finally:
        os.unlink(f.name)
    found = re.search(r"tps = ([\d.]+)", out)
    assert found, out
    return float(found.group(1))


def main() -> None:
    """Every stored size × worker count × document shape, each beside the pgbench floor."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--clients", type=int, default=4)
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--workers", default="1,2", help="uvicorn worker counts to compare")
    p.add_argument("--stored", default="10000,1000000", help="stored measurements per phase")
    args = p.parse_args()
    db = scratch_database("benchdash_bench_ingest")
    url = db.replace("postgresql+psycopg://", "postgresql://")
    token = cli(db, "token", "create", "--system", "benchsys", "--scope", "upload")
    print(
        f"machine: {platform.machine()} {platform.processor() or ''} {os.cpu_count()} cores, "
        f"Python {platform.python_version()}; {args.clients} clients, {args.seconds:.0f} s each"
    )
    with api(db, workers=1) as base:  # creates the system, branch, testbed and series
        load_api(base, token, 1, 1.0, False, "warmup")
    for stored in (int(s) for s in args.stored.split(",")):
        preload(url, stored)
        floor = pgbench(url, args.clients, args.seconds)
        print(
            f"stored {stored:,}: PostgreSQL floor (pgbench, 20-row INSERT per transaction): "
            f"{floor:.0f} tx/s",
            flush=True,
        )
        for workers in (int(w) for w in args.workers.split(",")):
            with api(db, workers=workers) as base:
                for samples in (False, True):
                    shape = "5 samples" if samples else "values only"
                    tag = f"s{stored}-w{workers}-{'s' if samples else 'v'}"
                    line, rate = load_api(
                        base, token, args.clients, args.seconds, samples, tag
                    ).split("|")
                    print(
                        f"  {workers} worker(s), {shape}: {line}; ratio to floor "
                        f"{float(rate) / floor:.3f}",
                        flush=True,
                    )


if __name__ == "__main__":
    main()
