"""A benchmark database of one system's runs × series, loaded with COPY (series.py, reads.py,
bigread.py, page.py): one metric, `series` benchmarks with one series each, a run every `step`
from `start`, every run measuring every series (value 100.0–101.6 ns, about one point in a
thousand failed) with its verdict, whose chart fields the measurement carries as ingest writes
them (migration 0019).
"""

from __future__ import annotations

import os
import subprocess
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

import psycopg
from _months import ensure_months
from _server import CLI, scratch_database

_SETUP = (
    "INSERT INTO system (id, slug, name, created_at) VALUES (1, 'big', 'big', now())",
    "INSERT INTO branch (id, system_id, name, created_at) VALUES (1, 1, 'main', now())",
    "INSERT INTO testbed (id, name, created_at) VALUES (1, 'tb', now())",
    "INSERT INTO benchmark (id, system_id, name, parameters, params_key, created_at) "
    "SELECT g, 1, 'bench' || g, '{}', '{}', now() FROM generate_series(1, %(series)s) g",
    "INSERT INTO metric (id, system_id, name, unit, direction, warn_threshold, "
    "fail_threshold) VALUES (1, 1, 'time', 'ns', 'lower_is_better', 5, 10)",
    "INSERT INTO series (id, system_id, benchmark_id, metric_id, branch_id, testbed_id) "
    "SELECT g, 1, g, 1, 1, 1 FROM generate_series(1, %(series)s) g",
)


@dataclass(frozen=True)
class Shape:
    """What to load: `runs` runs of `series` series, one run every `step` from `start`."""

    runs: int
    series: int
    start: datetime
    step: timedelta

    def at(self, run: int) -> str:
        """Run `run`'s start time (1-based), as COPY text."""
        return (self.start + self.step * run).isoformat()


def level(measurement_id: int) -> str:
    """The verdict level of a loaded point: about one in a thousand failed."""
    return "fail" if measurement_id % 997 == 0 else "ok"


def load(url: str, shape: Shape) -> str:
    """COPY the runs, measurements and verdicts of `shape` into an empty schema (foreign-key
    triggers off when the role may: the generated rows are consistent), then VACUUM ANALYZE;
    returns what each part took."""
    t0 = time.perf_counter()
    runs, series = shape.runs, shape.series
    made = ensure_months(url, shape.start, shape.start + shape.step * (runs + 1))  # locks first
    with psycopg.connect(url) as conn:
        su = conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetchone()
        fk_off = bool(su and su[0])
        if fk_off:
            conn.execute("SET session_replication_role = replica")
        for statement in _SETUP:
            conn.execute(statement, {"series": series})
        with conn.cursor().copy(
            "COPY run (id, system_id, branch_id, testbed_id, external_id, commit, "
            "trigger, status, accepted, created_at, started_at) FROM STDIN"
        ) as cp:
            for r in range(1, runs + 1):
                t = shape.at(r)
                cp.write(f"{r}\t1\t1\t1\tr{r}\t{r:08x}\tci\tcompleted\tt\t{t}\t{t}\n")
        t_runs = time.perf_counter()
        with conn.cursor().copy(
            "COPY measurement (id, run_id, benchmark_id, metric_id, series_id, started_at, "
            "value, samples, n, mean, median, stddev, min_value, max_value, cv, "
            "outliers_removed, level, baseline_value, chart_copied) FROM STDIN"
        ) as cp:
            for r in range(1, runs + 1):
                t, base, v = shape.at(r), (r - 1) * series, f"{100.0 + (r % 17) * 0.1:.1f}"
                cp.write(
                    "".join(
                        f"{base + b}\t{r}\t{b}\t1\t{b}\t{t}\t{v}\t{{{v}}}\t1\t{v}\t{v}\t0\t{v}\t"
                        f"{v}\t0\t0\t{level(base + b)}\t100\tt\n"
                        for b in range(1, series + 1)
                    )
                )
        t_meas = time.perf_counter()
        with conn.cursor().copy(
            "COPY verdict (measurement_id, started_at, level, baseline_value, baseline_run_ids, "
            "warn_threshold, fail_threshold, explanation) FROM STDIN"
        ) as cp:
            for r in range(1, runs + 1):
                t, base = shape.at(r), (r - 1) * series
                cp.write(
                    "".join(
                        f"{base + b}\t{t}\t{level(base + b)}\t100\t{{}}\t5\t10\t\n"
                        for b in range(1, series + 1)
                    )
                )
        for seq, table in (("run_id_seq", "run"), ("measurement_id_seq", "measurement")):
            conn.execute(f"SELECT setval('{seq}', (SELECT max(id) FROM {table}))")
        t_verd = time.perf_counter()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")  # what autovacuum leaves behind a settled table
    t_end = time.perf_counter()
    return (
        f"loaded {runs * series:,} measurements + verdicts in {t_end - t0:.0f} s "
        f"(runs {t_runs - t0:.0f} s, measurements COPY {t_meas - t_runs:.0f} s, verdicts COPY "
        f"{t_verd - t_meas:.0f} s, VACUUM ANALYZE {t_end - t_verd:.0f} s; foreign-key triggers "
        f"{'off' if fk_off else 'on'}; {len(made)} partitions made first)"
    )


def database(name: str, shape: Shape, reuse: bool) -> str:
    """The loaded database's URL (SQLAlchemy form): with `reuse`, a previous run's when it
    holds every measurement of `shape`; else a fresh one, loaded (what it took is printed)."""
    server = subprocess.run([CLI, "db-url"], capture_output=True, text=True, check=True)
    base, _, query = server.stdout.strip().partition("?")
    db = base.rsplit("/", 1)[0] + f"/{name}" + (f"?{query}" if query else "")
    if reuse:
        try:
            with psycopg.connect(plain(db)) as conn:  # loaded whole, by this loader
                row = conn.execute("SELECT count(*) FROM measurement WHERE chart_copied").fetchone()
            if row and row[0] == shape.runs * shape.series:
                print(f"reusing {name}: {row[0]:,} measurements")
                env = {**os.environ, "DATABASE_URL": db}
                subprocess.run([CLI, "migrate"], env=env, check=True, stdout=subprocess.DEVNULL)
                reorder(db)
                return db
        except psycopg.Error:
            pass
    db = scratch_database(name)
    print(load(plain(db), shape), flush=True)
    reorder(db)
    return db


def reorder(db: str) -> None:
    """Rewrite the closed months in series order, as a running server's hourly maintenance
    does a month at a time (`benchdash-server reorder` does them all): the state every month
    but the current one reaches. Its summary line is printed."""
    env = {**os.environ, "DATABASE_URL": db}
    out = subprocess.run([CLI, "reorder"], env=env, capture_output=True, text=True, check=True)
    print(f"benchdash-server reorder: {out.stdout.strip().splitlines()[-1]}", flush=True)


def plain(url: str) -> str:
    """A SQLAlchemy URL as libpq takes it."""
    return url.replace("postgresql+psycopg://", "postgresql://")
