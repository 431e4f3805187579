"""`benchdash-server retention` on a committed database of thousands of runs: the dry run's
totals are what the real run then deletes, batch by batch with a progress percentage, each batch
a short transaction, while uploads go on beside it; `main` and the runs an open alert names
stay. Prints the figures."""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import time
from datetime import datetime

from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Session

from benchdash.auth import usage
from benchdash.db import utcnow
from tests.conftest import app_on
from tests.fixtures.factories import auth, document, metric, token
from tests.retention.seed import OLD_FEATURE_DAYS, RULES, Seeded, seed
from tests.test_migrations import migrate, scratch_database

COPIES = 150  # bulk copies of each seeded run, a minute apart and older than it
_COPY = text(
    """WITH template AS (SELECT * FROM run WHERE external_id LIKE 'ret-%'),
    copied AS (
        INSERT INTO run (system_id, branch_id, testbed_id, external_id, commit, trigger, profile,
                         status, accepted, created_at, started_at, finished_at)
        SELECT t.system_id, t.branch_id, t.testbed_id, t.external_id || '-copy-' || g, t.commit,
               t.trigger, t.profile, t.status, t.accepted, t.created_at,
               t.started_at - make_interval(mins => g), t.finished_at
        FROM template t, generate_series(1, :copies) AS g
        RETURNING id, started_at, split_part(external_id, '-copy-', 1) AS source
    )
    INSERT INTO measurement (run_id, benchmark_id, metric_id, series_id, started_at, value,
                             samples, n, mean, median, stddev, min_value, max_value, cv,
                             outliers_removed)
    SELECT c.id, m.benchmark_id, m.metric_id, m.series_id, c.started_at, m.value, m.samples, m.n,
           m.mean, m.median, m.stddev, m.min_value, m.max_value, m.cv, m.outliers_removed
    FROM copied c JOIN template t ON t.external_id = c.source
    JOIN measurement m ON m.run_id = t.id"""
)
_BY_BRANCH = text(
    "SELECT b.name, count(r.id) FROM branch b LEFT JOIN run r ON r.branch_id = b.id "
    "GROUP BY b.name ORDER BY b.name"
)


def _seed(conn: Connection, now: datetime) -> Seeded:
    conn.begin()
    session = Session(bind=conn, join_transaction_mode="create_savepoint", expire_on_commit=False)
    with TestClient(app_on(conn)) as client:
        seeded = seed(client, session, now)
        admin = auth(token(session, scope="admin"))
        assert client.put(
            "/api/v1/retention/rules", json={"rules": RULES}, headers=admin
        ).is_success
        usage.forget()  # the tokens' last use is written on the scratch database by no one
    session.execute(_COPY, {"copies": COPIES})
    session.commit()  # releases its savepoint (closing alone would roll it back)
    session.close()
    conn.commit()
    return seeded


def _cli(url: str, *args: str) -> str:
    env = {**os.environ, "DATABASE_URL": url}
    done = subprocess.run(
        [sys.executable, "-m", "benchdash.cli", "retention", *args],
        env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _cli_while_uploading(url: str, conn: Connection) -> tuple[str, list[float]]:
    """Run the command while uploads arrive on a branch of their own, each committed: its
    output and each upload's time in seconds."""
    env = {**os.environ, "DATABASE_URL": url}
    command = [sys.executable, "-m", "benchdash.cli", "retention"]
    conn.begin()
    session = Session(bind=conn, join_transaction_mode="create_savepoint", expire_on_commit=False)
    headers = auth(token(session, "uvhttp"))
    session.commit()
    session.close()
    conn.commit()
    took: list[float] = []
    with TestClient(app_on(conn)) as warm:  # a process's first upload is slow on its own
        conn.begin()
        doc = document(metric(samples=[1.0, 1.1, 0.9]), branch="warm", at=0)
        assert warm.post("/api/v1/results", json=doc, headers=headers).status_code == 201
        conn.commit()
        usage.forget()
    with (
        TestClient(app_on(conn)) as client,
        subprocess.Popen(
            command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        ) as job,
    ):
        while job.poll() is None:
            conn.begin()
            doc = document(metric(samples=[1.0, 1.1, 0.9]), branch="live", at=len(took))
            started = time.perf_counter()
            assert client.post("/api/v1/results", json=doc, headers=headers).status_code == 201
            conn.commit()
            took.append(time.perf_counter() - started)
        usage.forget()
        out = job.stdout.read() if job.stdout else ""
    assert job.returncode == 0, out
    return out, took


def test_the_command_deletes_what_its_dry_run_reports(engine: Engine) -> None:
    with scratch_database(engine, "retention") as scratch:
        migrate(scratch, "head")
        with scratch.connect() as conn:
            seeded = _seed(conn, utcnow())
            seeded_runs = conn.execute(text("SELECT count(*) FROM run")).scalar_one()
            before = dict(conn.execute(_BY_BRANCH).tuples().all())
            conn.rollback()
        url = scratch.url.render_as_string(hide_password=False)
        dry = _cli(url, "--dry-run")
        totals = re.search(r"in all: (\d+) runs deleted, (\d+) summarised, (\d+) kept", dry)
        assert totals, dry
        to_delete, to_summarise, kept = map(int, totals.groups())
        with scratch.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM run")).scalar_one() == seeded_runs
        with scratch.connect() as conn:
            real, uploads = _cli_while_uploading(url, conn)
        percents = [int(p) for p in re.findall(r"\[\s*(\d+)%\]", real)]
        assert percents and percents == sorted(percents) and percents[-1] == 100, dry + real
        last = real.strip().splitlines()[-1]
        figures = re.search(
            r"deleted (\d+) runs \((\d+) measurements\), summarised (\d+) measurements of (\d+) "
            r"runs; (\d+) kept as referenced; (\d+) batches, longest ([\d.]+) ms, 0 skipped",
            last,
        )
        assert figures, real
        deleted, _, _, summarised, kept_after, batches, longest_ms = figures.groups()
        assert (int(deleted), int(summarised), int(kept_after)) == (to_delete, to_summarise, kept)
        assert to_delete == len(OLD_FEATURE_DAYS) * (COPIES + 1) - kept and kept == 6
        with scratch.connect() as conn:
            after = dict(conn.execute(_BY_BRANCH).tuples().all())
            left = set(conn.execute(text("SELECT id FROM run")).scalars())
        assert after["live"] == len(uploads) >= 1, "uploads went on beside it"
        assert after["main"] == before["main"] and after["feature/new"] == before["feature/new"]
        assert before["feature/old"] - after["feature/old"] == int(deleted)
        assert {seeded.open_alert, seeded.last_good, seeded.baseline, *seeded.bisection} <= left
        print(
            f"\nretention CLI: {seeded_runs} runs seeded, {deleted} deleted, {summarised} "
            f"summarised, {kept} kept as referenced, {batches} batches, longest transaction "
            f"{longest_ms} ms; {len(uploads)} uploads beside it, the slowest "
            f"{max(uploads) * 1000:.0f} ms, the median {statistics.median(uploads) * 1000:.0f} ms"
        )
