"""Many clients sharing one token against the real API process (issues 10 and 12).

No request may wait on a row another request holds: uploads made with one token run side by
side, the API keeps answering /readyz under load, and concurrent uploads of one document
store it once.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import psycopg

from benchdash.db import APP_NAME
from tests.integration.conftest import Api


def _doc(system: str, i: int, metrics: int = 20, external_id: str | None = None) -> dict[str, Any]:
    return {
        "schema": "benchdash/v1",
        "system": system,
        "run": {
            "external_id": external_id or f"{system}-{i}",
            "commit": f"{i:08x}",
            "testbed": "load",
        },
        "results": [
            {
                "benchmark": f"load{b}",
                "metrics": [
                    {
                        "name": f"m{k}",
                        "unit": "ns",
                        "direction": "lower_is_better",
                        "value": 100.0 + (i % 7) * 0.1 + k,
                    }
                    for k in range(min(metrics, 200))
                ],
            }
            for b in range(max(1, metrics // 200))
        ],
    }


def _token(api: Api, system: str) -> dict[str, str]:
    plain = api.cli("token", "create", "--system", system, "--scope", "upload")
    return {"Authorization": f"Bearer {plain}"}


def _stored_runs(api: Api, system: str) -> int:
    r = httpx.get(f"{api.url}/api/v1/runs", params={"system": system, "limit": 1}, timeout=30)
    return int(r.json()["total"])


def test_1000_uploads_from_50_clients_with_one_token(api: Api) -> None:
    headers = _token(api, "load50")
    ready: list[float] = []
    stop = threading.Event()

    def probe() -> None:
        with httpx.Client(base_url=api.url, timeout=10) as http:
            while not stop.is_set():
                t0 = time.perf_counter()
                status = http.get("/readyz").status_code
                ready.append(time.perf_counter() - t0 if status == 200 else float("inf"))
                time.sleep(0.2)

    def client(c: int) -> Counter[int]:
        got: Counter[int] = Counter()
        with httpx.Client(base_url=api.url, headers=headers, timeout=120) as http:
            for i in range(c, 1000, 50):
                got[http.post("/api/v1/results", json=_doc("load50", i)).status_code] += 1
        return got

    watcher = threading.Thread(target=probe)
    watcher.start()
    t0 = time.monotonic()
    try:
        with ThreadPoolExecutor(50) as pool:
            statuses = sum(pool.map(client, range(50)), Counter())
    finally:
        stop.set()
        watcher.join()
    took = time.monotonic() - t0
    print(f"1000 uploads from 50 clients: {took:.1f} s; /readyz max {max(ready):.2f} s")
    assert statuses == Counter({201: 1000})
    assert _stored_runs(api, "load50") == 1000
    assert ready and max(ready) < 10, "the API stopped answering /readyz under load"


def test_100_concurrent_reads_with_one_token(api: Api) -> None:
    headers = _token(api, "load50")

    def read(_: int) -> int:
        with httpx.Client(base_url=api.url, headers=headers, timeout=60) as http:
            return http.get("/api/v1/runs", params={"limit": 20}).status_code

    with ThreadPoolExecutor(100) as pool:
        assert Counter(pool.map(read, range(100))) == Counter({200: 100})


def test_concurrent_uploads_of_one_document_store_it_once(api: Api) -> None:
    headers = _token(api, "race")
    doc = _doc("race", 1, external_id="same-upload")

    def upload(_: int) -> int:
        with httpx.Client(base_url=api.url, headers=headers, timeout=60) as http:
            return http.post("/api/v1/results", json=doc).status_code

    with ThreadPoolExecutor(10) as pool:
        statuses = Counter(pool.map(upload, range(10)))
    assert statuses == Counter({201: 1, 200: 9})
    assert _stored_runs(api, "race") == 1


def test_uploads_with_one_token_overlap_in_time(api: Api) -> None:
    """8 large uploads at once: several ingest transactions open together, none waits on a lock."""
    headers = _token(api, "overlap")
    url = api.database_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(url) as conn:
        db = conn.info.dbname
    with httpx.Client(base_url=api.url, headers=headers, timeout=60) as http:
        assert http.post("/api/v1/results", json=_doc("overlap", 0, 2000)).status_code == 201
    open_together, lock_waits = 0, Counter[str]()
    done = threading.Event()

    def watch() -> None:
        nonlocal open_together, lock_waits
        with psycopg.connect(url, autocommit=True) as conn:
            while not done.is_set():
                # Requests' transactions (the API's background jobs name theirs otherwise),
                # what each waits on and the statements of the sessions it waits for.
                rows = conn.execute(
                    "SELECT a.wait_event_type, a.wait_event, left(a.query, 100), "
                    "(SELECT string_agg(b.application_name || ': ' || left(b.query, 100), ' | ') "
                    " FROM pg_stat_activity b WHERE b.pid = ANY(pg_blocking_pids(a.pid))) "
                    "FROM pg_stat_activity a WHERE a.datname = %s AND a.application_name = %s "
                    "AND a.pid <> pg_backend_pid() AND a.xact_start IS NOT NULL",
                    (db, APP_NAME),
                ).fetchall()
                open_together = max(open_together, len(rows))
                # Row and transaction locks mean serialisation; relation extension ("extend")
                # is PostgreSQL growing a table for concurrent inserts, which is expected.
                lock_waits.update(
                    f"{e}: {q!r} waited for {b!r}"
                    for t, e, q, b in rows
                    if t == "Lock" and e != "extend"
                )
                time.sleep(0.005)

    def upload(i: int) -> int:
        with httpx.Client(base_url=api.url, headers=headers, timeout=120) as http:
            return http.post("/api/v1/results", json=_doc("overlap", i, 2000)).status_code

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        with ThreadPoolExecutor(8) as pool:
            statuses = list(pool.map(upload, range(1, 9)))
    finally:
        done.set()
        watcher.join()
    print(f"ingest transactions open at once: {open_together}; lock waits seen: {lock_waits}")
    assert statuses == [201] * 8
    assert open_together >= 2, "uploads made with one token ran one after another"
    assert not lock_waits, lock_waits
