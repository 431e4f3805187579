"""1,000-point series reads with 20,000,000 measurements stored (monthly partitions), beside raw
SQL of the same rows on the same PostgreSQL, in one run. A benchmark, not a test.

    .venv/bin/python backend/bench/bigread.py [--measurements 20000000] [--series 1000]
                                              [--repeat 300] [--reuse] [--drop]

Loads runs × series measurements, each with its verdict, with COPY into a scratch database
(`benchdash_bench_bigread_<N>`): one run every 78 minutes (20,000 runs: about three years,
37 months), the months' partitions made first by the app's own maintenance code
(`results.partitions.ensure`). Foreign-key triggers are off during the load when the role may
do so (`session_replication_role = replica`; the generated rows are consistent), as a bulk
load does; the indexes are maintained. Then VACUUM ANALYZE (what autovacuum leaves behind).

Reads: each round picks a series and a window of 1,000 consecutive runs (seeded, spread over
the three years), GETs it from `benchdash-server serve` (one keep-alive connection) and runs
the raw SQL of the same rows on one psycopg connection, alternately, so both see the same
machine. Reports load time, disk size, p50/p90/p99/max of both and their ratio, and the
EXPLAIN line that shows the partitions pruned. `--reuse` keeps a database a previous run
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
from _months import ensure_months
from _server import CLI, api, embedded_stopped_after, scratch_database
from series import RAW

START = datetime(2023, 11, 1, tzinfo=UTC)
STEP = timedelta(minutes=78)


def _at(run: int) -> str:
    return (START + STEP * run).isoformat()


def load(url: str, runs: int, series: int) -> None:
    """COPY `runs` runs × `series` measurements and their verdicts; print what it took."""
    t0 = time.perf_counter()
    made = ensure_months(url, START, START + STEP * runs)  # before any write: it locks them
    with psycopg.connect(url) as conn:
        su = conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetchone()
        if su and su[0]:
            conn.execute("SET session_replication_role = replica")
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
        with conn.cursor().copy(
            "COPY run (id, system_id, branch_id, testbed_id, external_id, commit, "
            "trigger, status, accepted, created_at, started_at) FROM STDIN"
        ) as cp:
            for r in range(1, runs + 1):
                t = _at(r)
                cp.write(f"{r}\t1\t1\t1\tr{r}\t{r:08x}\tci\tcompleted\tt\t{t}\t{t}\n")
        t_runs = time.perf_counter()
        with conn.cursor().copy(
            "COPY measurement (id, run_id, benchmark_id, metric_id, series_id, started_at, "
            "value, samples, n, mean, median, stddev, min_value, max_value, cv, "
            "outliers_removed, level) FROM STDIN"
        ) as cp:
            for r in range(1, runs + 1):
                t, base = _at(r), (r - 1) * series
                v = f"{100.0 + (r % 17) * 0.1:.1f}"
                cp.write(
                    "".join(
                        f"{base + b}\t{r}\t{b}\t1\t{b}\t{t}\t{v}\t{{{v}}}\t1\t{v}\t{v}\t0\t{v}\t"
                        f"{v}\t0\t0\t{'fail' if (base + b) % 997 == 0 else 'ok'}\n"
                        for b in range(1, series + 1)
                    )
                )
        t_meas = time.perf_counter()
        with conn.cursor().copy(
            "COPY verdict (measurement_id, started_at, level, baseline_value, baseline_run_ids, "
            "warn_threshold, fail_threshold, explanation) FROM STDIN"
        ) as cp:
            for r in range(1, runs + 1):
                t, base = _at(r), (r - 1) * series
                cp.write(
                    "".join(
                        f"{base + b}\t{t}\t{'fail' if (base + b) % 997 == 0 else 'ok'}\t100\t{{}}"
                        "\t5\t10\t\n"
                        for b in range(1, series + 1)
                    )
                )
        for seq, table in (("run_id_seq", "run"), ("measurement_id_seq", "measurement")):
            conn.execute(f"SELECT setval('{seq}', (SELECT max(id) FROM {table}))")
        t_verd = time.perf_counter()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
    t_end = time.perf_counter()
    print(
        f"loaded {runs * series:,} measurements + verdicts in {t_end - t0:.0f} s "
        f"(runs {t_runs - t0:.0f} s, measurements COPY {t_meas - t_runs:.0f} s, verdicts COPY "
        f"{t_verd - t_meas:.0f} s, VACUUM ANALYZE {t_end - t_verd:.0f} s; foreign-key triggers "
        f"{'off' if su and su[0] else 'on'}; {len(made)} partitions made first)"
    )


def database(name: str, runs: int, series: int, reuse: bool) -> str:
    """The loaded database's URL: the previous run's when --reuse finds it complete."""
    server = subprocess.run([CLI, "db-url"], capture_output=True, text=True, check=True)
    base, _, query = server.stdout.strip().partition("?")
    db = base.rsplit("/", 1)[0] + f"/{name}" + (f"?{query}" if query else "")
    url = db.replace("postgresql+psycopg://", "postgresql://")
    if reuse:
        try:
            with psycopg.connect(url) as conn:
                row = conn.execute("SELECT count(*) FROM measurement").fetchone()
            if row and row[0] == runs * series:
                print(f"reusing {name}: {row[0]:,} measurements")
                return db
        except psycopg.Error:
            pass
    db = scratch_database(name)
    load(db.replace("postgresql+psycopg://", "postgresql://"), runs, series)
    return db


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
    args = p.parse_args()
    runs = args.measurements // args.series
    name = f"benchdash_bench_bigread_{args.measurements}"
    db = database(name, runs, args.series, args.reuse)
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
            }
            t0 = time.perf_counter()
            r = http.get("/api/v1/series", params=params)
            t1 = time.perf_counter()
            rows = conn.execute(RAW, (b, since, until)).fetchall()
            t2 = time.perf_counter()
            assert r.status_code == 200 and len(r.json()["points"]) == len(rows) == 1000, r.text
            if i:  # the first round warms both up
                endpoint.append(1000 * (t1 - t0))
                raw.append(1000 * (t2 - t1))
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
    for label, xs in (("series endpoint", endpoint), ("raw SQL, same rows", raw)):
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
