"""A PostgreSQL restart under upload load (issue 10): the API answers 503 with Retry-After while
the database is away (never a 500, never a hang), and a client that retries on 503 loses and
duplicates nothing."""

from __future__ import annotations

import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import httpx

from tests.integration.conftest import Api
from tests.integration.pg import Postgres


def _doc(i: int) -> dict[str, object]:
    return {
        "schema": "benchdash/v1",
        "system": "outage",
        "run": {"external_id": f"outage-{i}", "commit": f"{i:08x}", "testbed": "outage"},
        "results": [
            {
                "benchmark": "b",
                "metrics": [
                    {
                        "name": "t",
                        "unit": "ns",
                        "direction": "lower_is_better",
                        "value": 100.0 + i % 3,
                    }
                ],
            }
        ],
    }


def test_uploads_through_a_database_restart(private_stack: tuple[Api, Postgres]) -> None:
    api, pg = private_stack
    headers = {"Authorization": f"Bearer {api.token}"}
    seen: Counter[int] = Counter()
    lock = threading.Lock()

    def upload(i: int) -> int:
        with httpx.Client(base_url=api.url, headers=headers, timeout=60) as http:
            for _ in range(120):
                try:
                    r = http.post("/api/v1/results", json=_doc(i))
                except httpx.TransportError:
                    time.sleep(0.5)
                    continue
                with lock:
                    seen[r.status_code] += 1
                if r.status_code == 503:
                    assert r.headers["content-type"] == "application/problem+json"
                    assert int(r.headers["retry-after"]) > 0
                    time.sleep(0.5)
                    continue
                return r.status_code
        return 0

    def restart_midway() -> None:
        time.sleep(1.0)
        pg.restart(down_s=5.0)

    restarter = threading.Thread(target=restart_midway)
    restarter.start()
    with ThreadPoolExecutor(8) as pool:
        finals = Counter(pool.map(upload, range(200)))
    restarter.join()
    print(f"statuses seen: {dict(seen)}; final: {dict(finals)}")
    assert set(finals) <= {200, 201} and sum(finals.values()) == 200
    assert seen[500] == 0
    r = httpx.get(f"{api.url}/api/v1/runs", params={"system": "outage", "limit": 1})
    assert r.json()["total"] == 200  # nothing lost, nothing stored twice
