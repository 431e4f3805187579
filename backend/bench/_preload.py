"""Fill a benchmark database with measurements fast (COPY), for `ingest.py`'s stored sizes."""

from __future__ import annotations

import time

import psycopg


def preload(url: str, target: int) -> None:
    """COPY measurements into other series of the system until `target` are stored."""
    with psycopg.connect(url) as conn:
        have = conn.execute("SELECT count(*) FROM measurement").fetchone()
        missing = target - (have[0] if have else 0)
        if missing <= 0:
            return
        t0 = time.perf_counter()
        ids = conn.execute(
            "SELECT r.system_id, r.branch_id, r.testbed_id FROM run r LIMIT 1"
        ).fetchone()
        assert ids is not None, "the first API phase creates the system"
        system, branch, testbed = ids
        per_run = 100  # one measurement per run of each of 100 preload benchmarks
        runs = missing // per_run + 1
        metric = conn.execute(
            "INSERT INTO metric (system_id, name, unit, direction, warn_threshold, "
            "fail_threshold) VALUES (%s, 'preload', 'ns', 'lower_is_better', 5, 10) "
            "ON CONFLICT (system_id, name) DO UPDATE SET unit = 'ns' RETURNING id",
            (system,),
        ).fetchone()
        assert metric
        pairs = []  # (benchmark id, series id), one series per preload benchmark
        for b in range(per_run):
            bench = conn.execute(
                "INSERT INTO benchmark (system_id, name, parameters, params_key, created_at) "
                "VALUES (%s, %s, '{}', '{}', now()) RETURNING id",
                (system, f"preload-{target}-{b}"),
            ).fetchone()
            assert bench
            series = conn.execute(
                "INSERT INTO series (system_id, benchmark_id, metric_id, branch_id, testbed_id) "
                "VALUES (%s, %s, %s, %s, %s) RETURNING id",
                (system, bench[0], metric[0], branch, testbed),
            ).fetchone()
            assert series
            pairs.append((bench[0], series[0]))
        # The preloaded runs lie in the past, so the benchmark's own series stay the newest.
        run_rows = conn.execute(
            "INSERT INTO run (system_id, branch_id, testbed_id, trigger, status, accepted, "
            "created_at, started_at) SELECT %s, %s, %s, 'ci', 'completed', true, now(), "
            "timestamptz '2016-01-01' + g * interval '1 second' FROM generate_series(1, %s) g "
            "RETURNING id, started_at",
            (system, branch, testbed, runs),
        ).fetchall()
        with conn.cursor().copy(
            "COPY measurement (run_id, benchmark_id, metric_id, series_id, started_at, value, "
            "samples, n, mean, median, stddev, min_value, max_value, cv, outliers_removed) "
            "FROM STDIN"
        ) as cp:
            written = 0
            for run_id, at in run_rows:
                for bench_id, series_id in pairs:
                    if written >= missing:
                        break
                    cp.write_row(
                        (
                            run_id,
                            bench_id,
                            metric[0],
                            series_id,
                            at,
                            1.0,
                            [1.0],
                            1,
                            1.0,
                            1.0,
                            0.0,
                            1.0,
                            1.0,
                            0.0,
                            0,
                        )
                    )
                    written += 1
        conn.execute("ANALYZE")
    print(f"  preloaded {missing:,} measurements in {time.perf_counter() - t0:.1f} s", flush=True)
