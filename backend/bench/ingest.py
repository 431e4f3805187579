"""Ingest throughput of the real API against PostgreSQL's own floor, measured in one run.

    .venv/bin/python backend/bench/ingest.py [--clients 4] [--seconds 10] [--workers 1,2]
                                            [--stored 10000,1000000] [--history 12]
                                            [--step-at N]

Load: N client processes, one keep-alive connection each, each posting its own CI stream
(_documents.py: the 20-metric mix real jobs send: quiet and noisy timers, integer counters,
zeros, a bimodal timer, throughput, 3–10 samples on some metrics). Each client first sends
`--history` runs untimed, so every timed upload is judged (the detector needs 10 earlier runs),
then posts for a fixed time. Reference, same PostgreSQL, same N clients, same time: `pgbench`
running one transaction = one 20-row multi-row INSERT into a table shaped like `measurement`.
Repeated with the database holding each `--stored` count of measurements (COPY-loaded into
other series first). Prints uploads/s, p50/p90/p99/max, every non-2xx answer by status (with
its first body), the ratio to the floor and the CPU time per upload of the API's processes and
of PostgreSQL's (where the two cores go); exits 1 if any upload was answered 5xx.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import platform
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import psycopg
from _documents import document, user_job
from _observe import cpu_seconds
from _preload import preload
from _server import api, cli, embedded_stopped_after, scratch_database

METRICS = 20
FLOOR_TABLE = """CREATE TABLE IF NOT EXISTS bench_floor (
  id bigserial PRIMARY KEY, run_id int, benchmark_id int, metric_id int, value float8,
  samples float8[], n int, mean float8, median float8, stddev float8, min_value float8,
  max_value float8, cv float8, outliers_removed int)"""


def client(
    base: str, token: str, stream: str, seconds: float, opts: dict[str, Any], out: Any
) -> None:
    """One client process: one keep-alive connection; `history` untimed runs, then post until
    the time is up. Sends back latencies (timed part), statuses and the first body of each
    non-2xx status (whole stream)."""
    rng = random.Random(stream)
    job = user_job(opts["step_at"])
    latencies: list[float] = []
    statuses: Counter[str] = Counter()
    bodies: dict[str, str] = {}
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=base, headers=headers, timeout=60) as http:
        i, stop = 0, None
        while stop is None or time.monotonic() < stop:
            if i == opts["history"]:
                stop = time.monotonic() + seconds
            doc = document(job, stream, i, rng)
            t0 = time.perf_counter()
            try:
                r = http.post("/api/v1/results", json=doc)
                status, text = str(r.status_code), r.text
            except httpx.HTTPError as exc:
                status, text = type(exc).__name__, str(exc)
            if stop is not None:
                latencies.append(time.perf_counter() - t0)
            statuses[status] += 1
            if not status.startswith("2"):
                bodies.setdefault(status, f"run {i}: {text[:300]}")
            i += 1
    out.put((latencies, statuses, bodies))


def load_api(
    base: str, token: str, clients: int, seconds: float, tag: str, opts: dict[str, Any]
) -> tuple[str, float, Counter[str]]:
    """Run the clients; a one-line summary, uploads/s and the statuses answered."""
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    procs = [
        ctx.Process(target=client, args=(base, token, f"{tag}-c{c}", seconds, opts, queue))
        for c in range(clients)
    ]
    for p in procs:
        p.start()
    try:
        results = [queue.get(timeout=seconds + 300) for _ in procs]
    finally:
        for p in procs:
            p.join(timeout=10)
            if p.is_alive():
                p.kill()
    lat = sorted(x for lats, _, _ in results for x in lats)
    statuses: Counter[str] = sum((s for _, s, _ in results), Counter())
    n = len(lat)
    rate = n / seconds
    p50, p90, p99 = (1000 * lat[min(n - 1, int(n * q))] for q in (0.5, 0.9, 0.99))
    line = (
        f"{rate:.1f} uploads/s, p50 {p50:.1f} ms, p90 {p90:.1f}, p99 {p99:.1f}, max "
        f"{1000 * lat[-1]:.1f}; answers {dict(sorted(statuses.items()))}"
    )
    for _, _, bodies in results:
        for status, body in bodies.items():
            line += f"\n    non-2xx {status}: {body}"
    return line, rate, statuses


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
    """Every stored size × worker count, each beside the pgbench floor; exit 1 on any 5xx."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--clients", type=int, default=4)
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--workers", default="1,2", help="uvicorn worker counts to compare")
    p.add_argument("--stored", default="10000,1000000", help="stored measurements per phase")
    p.add_argument("--history", type=int, default=12, help="untimed runs first, per client")
    p.add_argument("--step-at", type=int, default=None, help="run where 3 metrics step worse")
    args = p.parse_args()
    opts = {"history": args.history, "step_at": args.step_at}
    db = scratch_database("benchdash_bench_ingest")
    url = db.replace("postgresql+psycopg://", "postgresql://")
    token = cli(db, "token", "create", "--system", "benchsys", "--scope", "upload")
    print(
        f"machine: {platform.machine()} {platform.processor() or ''} {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f}; "
        f"{args.clients} clients, {args.history} untimed runs then {args.seconds:.0f} s each"
    )
    answered: Counter[str] = Counter()
    with api(db, workers=1) as base:  # creates the system, branch, testbed and series
        answered += load_api(base, token, 1, 1.0, "warmup", opts)[2]
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
                tag = f"s{stored}-w{workers}"
                before = cpu_seconds()
                line, rate, statuses = load_api(base, token, args.clients, args.seconds, tag, opts)
                used, uploads = cpu_seconds() - before, sum(statuses.values())
                api_ms, pg_ms = (1000 * used[k] / uploads for k in ("api", "postgres"))
                answered += statuses
                print(
                    f"  {workers} worker(s): {line}\n    ratio to floor {rate / floor:.3f}; CPU "
                    f"per upload (all {uploads} of the line): API {api_ms:.1f} ms, PostgreSQL "
                    f"{pg_ms:.1f} ms",
                    flush=True,
                )
    server_errors = sum(n for status, n in answered.items() if status.startswith("5"))
    if server_errors:
        print(f"FAILED: {server_errors} uploads answered 5xx", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    with embedded_stopped_after():
        main()
