"""Agents wait well (issue 37, item 6): a claim with `wait_s` on an empty queue is held until a
run of its system is queued, then answered with that run; while it waits the API holds no
transaction open (its one LISTEN connection excepted, nothing of it is in pg_stat_activity as
`idle in transaction`), and at the end of an empty wait it answers with no run."""

from __future__ import annotations

import threading
import time
import tomllib
from typing import Any

import httpx
import psycopg

from tests.integration.agents import post
from tests.integration.conftest import ROOT, Api

SYSTEM = "longpoll"


def _register(api: Api) -> dict[str, str]:
    manifest = tomllib.loads((ROOT / "runners/selftest/runner.toml").read_text())
    manifest |= {"system": SYSTEM, "name": SYSTEM}
    headers = {"Authorization": f"Bearer {api.token}"}
    r = httpx.put(f"{api.url}/api/v1/systems/{SYSTEM}/manifest", json=manifest, headers=headers)
    assert r.status_code == 200, r.text
    return headers


def _claim(
    api: Api, headers: dict[str, str], wait_s: float, out: list[Any], host: str = "lp-1"
) -> None:
    body = {"name": f"{host}/1", "host": host, "wait_s": wait_s}
    r = httpx.post(
        f"{api.url}/api/v1/systems/{SYSTEM}/agents/claim",
        json=body,
        headers=headers,
        timeout=wait_s + 30,
    )
    out.append((r.status_code, r.json()))


def _activity(api: Api) -> list[tuple[str, str, str]]:
    with psycopg.connect(api.database_url.replace("+psycopg", ""), autocommit=True) as conn:
        rows = conn.execute(
            "SELECT application_name, state, query FROM pg_stat_activity "
            "WHERE datname = current_database() AND application_name LIKE 'benchdash%'"
        ).fetchall()
    return [(str(a), str(s), str(q)) for a, s, q in rows]


def test_a_waiting_claim_gets_the_run_queued_meanwhile_holding_no_transaction(api: Api) -> None:
    headers = _register(api)
    got: list[Any] = []
    waiting = threading.Thread(target=_claim, args=(api, headers, 25, got))
    waiting.start()
    time.sleep(2)  # let it reach its wait (the first look finds the queue empty)
    assert not got, f"the claim answered before any run was queued: {got}"
    activity = _activity(api)
    assert ("benchdash listener", "idle", "LISTEN benchdash_work") in activity, activity
    stuck = [row for row in activity if row[1].startswith("idle in transaction")]
    assert stuck == [], f"the API holds a transaction open while the claim waits: {stuck}"
    run = post(api, "/api/v1/runs", {"system": SYSTEM, "ref": "HEAD", "profile": "quick"})
    waiting.join(timeout=5)  # generous for a NOTIFY, shorter than its 10 s look without one
    assert not waiting.is_alive(), "the claim was not answered after the run was queued"
    assert got == [(200, {"run_id": run["id"], "reason": None, "source_url": None})]
    post(api, f"/api/v1/runs/{run['id']}/report", {"status": "cancelled"})  # frees the host


def test_an_empty_wait_answers_no_run_at_its_end(api: Api) -> None:
    headers = _register(api)
    got: list[Any] = []
    t0 = time.monotonic()
    _claim(api, headers, 1.5, got, host="lp-2")
    assert time.monotonic() - t0 >= 1.4, "it did wait"
    assert got == [(200, {"run_id": None, "reason": None, "source_url": None})]
    live = httpx.post(
        f"{api.url}/api/v1/systems/{SYSTEM}/agents/heartbeat",
        json={"name": "lp-2/2", "host": "lp-2"},
        headers=headers,
    )
    assert live.json()["live_agents"] >= 2  # the waiting claim counted as lp-2/1's heartbeat
