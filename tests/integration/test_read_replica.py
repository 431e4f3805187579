"""Dashboards read from a PostgreSQL streaming replica when one is configured (issue 27):
BENCHDASH_DATABASE_READ_URL. A client reads its own writes from the primary (the cookie the
API sets on a write); without a replica answering, reads go to the primary, never a 5xx."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import httpx
import psycopg
import pytest

from tests.integration.conftest import BIN, start_server
from tests.integration.pg import Postgres
from tests.integration.procs import stop


def _document(at: int, benchmark: str = "medium_concurrency") -> dict[str, Any]:
    return {
        "schema": "benchdash/v1",
        "system": "uvhttp",
        "run": {"external_id": f"replica-{at}", "commit": f"{at:07x}", "branch": "main"},
        "environment": {"os": "Linux"},
        "results": [
            {
                "benchmark": benchmark,
                "metrics": [
                    {
                        "name": "requests_per_second",
                        "unit": "req/s",
                        "direction": "higher_is_better",
                        "samples": [1000.0 + at, 1001.0 + at, 999.0 + at],
                    }
                ],
            }
        ],
    }


@pytest.fixture(scope="module")
def stack() -> Iterator[tuple[str, str, Postgres, Postgres]]:
    """A primary, its streaming replica, and an API reading dashboards from the replica."""
    primary = Postgres()
    primary.start()
    standby = Postgres(standby_of=primary)
    standby.start()
    server, proc = str(BIN / "benchdash-server"), None
    env = {
        **os.environ,
        "DATABASE_URL": primary.url,
        "BENCHDASH_DATABASE_READ_URL": standby.url,
        "BENCHDASH_ADMIN_PASSWORD": "it-admin-pass",
        "BENCHDASH_SCHEDULE_GRACE_S": "0",
    }
    try:
        subprocess.run([server, "migrate"], env=env, check=True, capture_output=True)
        token = subprocess.run(
            [server, "token", "create", "--scope", "upload", "--name", "replica"],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        proc, url = start_server(env)
        yield url, token, primary, standby
    finally:
        if proc is not None:
            stop(proc)
        standby.remove()
        primary.remove()


def _until(check: Any, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def _points(client: httpx.Client, url: str, benchmark: str = "medium_concurrency") -> int:
    series = {"system": "uvhttp", "benchmark": benchmark, "metric": "requests_per_second"}
    r = client.get(url + "/api/v1/series", params=series)
    assert r.status_code in (200, 404), r.text
    return len(r.json()["points"]) if r.status_code == 200 else 0


def _replay(standby: Postgres, paused: bool) -> None:
    with psycopg.connect(standby.url, autocommit=True) as conn:
        conn.execute("SELECT pg_wal_replay_pause()" if paused else "SELECT pg_wal_replay_resume()")


def test_reads_come_from_the_replica_and_writers_read_their_own(
    stack: tuple[str, str, Postgres, Postgres],
) -> None:
    url, token, _, standby = stack
    writer = httpx.Client(headers={"Authorization": f"Bearer {token}"}, timeout=30)
    reader = httpx.Client(timeout=30)
    with writer, reader:
        assert writer.post(url + "/api/v1/results", json=_document(1)).status_code == 201
        _until(lambda: _points(reader, url) == 1, "the replica to replay the first upload")
        _replay(standby, paused=True)
        try:
            r = writer.post(url + "/api/v1/results", json=_document(2))
            assert r.status_code == 201 and "benchdash_fresh=1" in r.headers["set-cookie"]
            time.sleep(0.5)  # long enough for any replay, were it not paused
            assert _points(reader, url) == 1  # a dashboard read: the paused replica answers
            assert _points(writer, url) == 2  # its own write: the primary answers
        finally:
            _replay(standby, paused=False)
        _until(lambda: _points(reader, url) == 2, "the replica to catch up")


def test_reads_fall_back_to_the_primary_when_the_replica_is_down(
    stack: tuple[str, str, Postgres, Postgres],
) -> None:
    url, token, _, standby = stack
    with httpx.Client(headers={"Authorization": f"Bearer {token}"}, timeout=30) as writer:
        # a series of its own: the tests may run in any order
        assert (
            writer.post(url + "/api/v1/results", json=_document(3, "fallback")).status_code == 201
        )
    standby.stop()
    try:
        with httpx.Client(timeout=30) as reader:
            assert _points(reader, url, "fallback") == 1
            assert reader.get(url + "/api/v1/systems").status_code == 200
    finally:
        standby.start()
