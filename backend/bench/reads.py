"""Series reads through the server `make up` runs, beside raw SQL of the same rows, one run.

    .venv/bin/python backend/bench/reads.py [--runs 10000] [--series 100] [--requests 300]
                                           [--reuse] [--trace-gc] [--readers 4]

The database holds runs × series measurements (COPY-loaded as in series.py; `--reuse` keeps
the one a previous run loaded). The API runs with make up's command (scripts/up.py's
`services()["api"]`: `benchdash-server serve --no-migrate`, its default worker count, access
log on), bound to 127.0.0.1. Beside it, in the same run, the reference server: uvicorn on
`benchdash.app:create_app` with the same workers, i.e. the serve command before its heap was
frozen for the garbage collector. Each round sends one 1,000-point read to every target in
turn (each server on one keep-alive connection and on a fresh connection per request, make
up's also in the compact form (`form=columns`), then raw SQL of the same rows on one psycopg
connection), so all see the same machine load; then
`--readers` keep-alive readers at once on each server in turn (a page of charts loading).

Reports p50/p90/p99/max per target and its ratio to raw SQL; pg_stat_activity sampled every
20 ms during the reads (what the API's backends were doing or waiting on); with --trace-gc,
every collection of 1 ms or more in the servers (gctrace/sitecustomize.py) and how many slow
requests (over 3× their p50) overlapped a full (generation 2) collection.
"""

from __future__ import annotations

import argparse
import http.client
import importlib.util
import os
import platform
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlencode

import psycopg
from _bulk import Shape, database
from _observe import gc_report, quantiles, sample_activity
from _server import BIN, embedded_stopped_after, free_port, served
from series import RAW, START

from benchdash.config import get_settings

ROOT = Path(__file__).resolve().parents[2]
SINCE = START + timedelta(hours=1)
UNTIL = SINCE + timedelta(hours=999)  # 1,000 runs: 1,000 points of series 42
QUERY = "/api/v1/series?" + urlencode(
    {
        "system": "big",
        "benchmark": "bench42",
        "metric": "time",
        "from": SINCE.isoformat(),
        "to": UNTIL.isoformat(),
        "max_points": 1000,
    }
)
COLUMNS = QUERY + "&form=columns"  # the compact wire form: one array a field
NAME = "benchdash_bench_reads"


def make_up_command() -> list[str]:
    """The API command `make up` runs (scripts/up.py), with the venv's executable."""
    spec = importlib.util.spec_from_file_location("up", ROOT / "scripts" / "up.py")
    assert spec and spec.loader
    up = sys.modules["up"] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(up)
    command = list(up.services()["api"].command)
    return [str(BIN / command[0]), *command[1:]]


def keep_alive(port: int, query: str = QUERY) -> Callable[[], int]:
    """GET the series on one connection kept open (opened again when the server closed it
    while it sat idle past its keep-alive timeout, as a browser does); returns the body's
    size."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def get() -> int:
        try:
            conn.request("GET", query)
            r = conn.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            conn.close()
            conn.request("GET", query)
            r = conn.getresponse()
        body = r.read()
        assert r.status == 200, (r.status, body[:200])
        return len(body)

    return get


def fresh(port: int) -> Callable[[], int]:
    """GET the series on a new connection each time (Connection: close)."""

    def get() -> int:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            conn.request("GET", QUERY, headers={"Connection": "close"})
            r = conn.getresponse()
            body = r.read()
            assert r.status == 200, (r.status, body[:200])
            return len(body)
        finally:
            conn.close()

    return get


def together(port: int, readers: int, each: int) -> list[tuple[float, float]]:
    """`readers` threads, each on its own keep-alive connection, `each` reads at once (as a
    page of charts does); the (start, end) of every read."""
    spans: list[tuple[float, float]] = []

    def run() -> None:
        get = keep_alive(port)
        for _ in range(each):
            t0 = time.monotonic()
            get()
            spans.append((t0, time.monotonic()))

    threads = [threading.Thread(target=run) for _ in range(readers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return spans


def main() -> None:
    """Load (or reuse), start both servers, interleave the reads, report."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--runs", type=int, default=10_000)
    p.add_argument("--series", type=int, default=100)
    p.add_argument("--requests", type=int, default=300, help="reads per target")
    p.add_argument("--reuse", action="store_true", help="keep a loaded database of this size")
    p.add_argument("--trace-gc", action="store_true", help="log the servers' collections")
    p.add_argument("--readers", type=int, default=4, help="then this many at once (0: not)")
    args = p.parse_args()
    db = database(NAME, Shape(args.runs, args.series, START, timedelta(hours=1)), args.reuse)
    url = db.replace("postgresql+psycopg://", "postgresql://")
    workers = get_settings().workers
    scratch = tempfile.TemporaryDirectory(prefix="bench-reads-")  # removed at exit
    tmp = Path(scratch.name)
    ports = {"make up's serve": free_port(), "reference (heap not frozen)": free_port()}
    commands = {
        "make up's serve": make_up_command(),
        "reference (heap not frozen)": [
            str(BIN / "uvicorn"),
            "benchdash.app:create_app",
            "--factory",
            "--workers",
            str(workers),
            "--host",
            "127.0.0.1",
            "--port",
        ],
    }
    print(
        f"machine: {platform.machine()} {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, load average {os.getloadavg()[0]:.1f}; {workers} API "
        f"workers per server; {args.runs * args.series:,} stored; {args.requests} reads each"
    )
    env = {"DATABASE_URL": db, "BENCHDASH_HOST": "127.0.0.1"}
    if args.trace_gc:
        env["PYTHONPATH"] = str(Path(__file__).parent / "gctrace")
    (name_a, port_a), (name_b, port_b) = ports.items()
    env_a = {**env, "BENCHDASH_PORT": str(port_a), "BENCHDASH_GC_TRACE": str(tmp / "a.gc")}
    env_b = {**env, "BENCHDASH_GC_TRACE": str(tmp / "b.gc")}
    with (
        served(commands[name_a], env_a, port_a, tmp / "a.log"),
        served([*commands[name_b], str(port_b)], env_b, port_b, tmp / "b.log"),
        psycopg.connect(url) as raw,
    ):
        targets: dict[str, Callable[[], int]] = {
            f"{name_a}, keep-alive": keep_alive(port_a),
            f"{name_a}, keep-alive, form=columns": keep_alive(port_a, COLUMNS),
            f"{name_a}, fresh connections": fresh(port_a),
            f"{name_b}, keep-alive": keep_alive(port_b),
            f"{name_b}, fresh connections": fresh(port_b),
            "raw SQL, same rows": lambda: len(raw.execute(RAW, (42, SINCE, UNTIL)).fetchall()),
        }
        for get in targets.values():
            for _ in range(10):
                size = get()  # warm-up; the last is the raw row count
        body = targets[f"{name_a}, keep-alive"]()
        compact = targets[f"{name_a}, keep-alive, form=columns"]()
        spans: dict[str, list[tuple[float, float]]] = {k: [] for k in targets}
        seen: Counter[str] = Counter()
        stop = threading.Event()
        sampler = threading.Thread(
            target=sample_activity, args=(url, [raw.info.backend_pid], stop, seen)
        )
        started = time.monotonic()
        sampler.start()
        try:
            for _ in range(args.requests):
                for name, get in targets.items():
                    t0 = time.monotonic()
                    get()
                    spans[name].append((t0, time.monotonic()))
            each = args.requests // (3 * args.readers) if args.readers else 0
            for _ in range(3 if each else 0):  # alternate, so both see the same load
                for name, port in ((name_a, port_a), (name_b, port_b)):
                    key = f"{name}, {args.readers} keep-alive readers at once"
                    spans.setdefault(key, []).extend(together(port, args.readers, each))
        finally:
            stop.set()
            sampler.join()
    print(
        f"1,000 points ({size} rows by raw SQL): {body:,} bytes, {body / 1000:.0f} bytes/point; "
        f"form=columns {compact:,} bytes, {compact / 1000:.0f} bytes/point"
    )
    ms = {k: [1000 * (b - a) for a, b in v] for k, v in spans.items()}
    ref = quantiles(ms["raw SQL, same rows"])
    for name, values in ms.items():
        p50, p90, p99, worst = quantiles(values)
        print(
            f"  {name}: p50 {p50:.1f} ms, p90 {p90:.1f}, p99 {p99:.1f}, max {worst:.1f}"
            f"  (× raw SQL: p50 {p50 / ref[0]:.1f}, p99 {p99 / ref[2]:.1f})"
        )
    samples = seen.pop("samples")
    print(f"pg_stat_activity, {samples} samples during the reads: {dict(seen.most_common())}")
    if args.trace_gc:
        for name, side in ((name_a, "a"), (name_b, "b")):
            trace, log = tmp / f"{side}.gc", tmp / f"{side}.log"
            for key in (k for k in spans if k.startswith(name)):
                print(f"  GC in {key}: {gc_report(spans[key], trace, log, started)}")


if __name__ == "__main__":
    with embedded_stopped_after():
        main()
