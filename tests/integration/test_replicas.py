"""API replicas are stateless (issue 27): two API processes on one database serve one client
interchangeably. A session made on one is good on the other and ends on both; sign-in throttling
counts attempts on both; a run triggered on one streams its events from the other; uploads
spread over both while one is killed lose nothing and double nothing."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.integration.conftest import SERVER, start_server
from tests.integration.procs import stop

PASSWORD = "replica-admin-pass"


@pytest.fixture(scope="module")
def replicas() -> Iterator[tuple[list[str], str, dict[str, str]]]:
    """Two API processes on one fresh database; their URLs and an admin token."""
    name = f"benchdash_replicas_{os.getpid()}"
    db = subprocess.run(
        [SERVER, "scratch-db", name], capture_output=True, text=True, check=True
    ).stdout.strip()
    env = {
        **os.environ,
        "DATABASE_URL": db,
        "BENCHDASH_ADMIN_PASSWORD": PASSWORD,
        "BENCHDASH_SECRET_KEY": "replicas-share-this-signing-key-and-nothing-else",
        "BENCHDASH_SCHEDULE_GRACE_S": "0",
    }
    subprocess.run([SERVER, "migrate"], env=env, check=True, capture_output=True)
    token = subprocess.run(
        [SERVER, "token", "create", "--scope", "admin", "--name", "replicas"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    procs: list[subprocess.Popen[bytes]] = []
    try:
        urls = []
        for _ in range(2):
            proc, url = start_server(env)
            procs.append(proc)
            urls.append(url)
        yield urls, token, env
    finally:
        for proc in procs:
            stop(proc)  # the group: the API's workers too
        subprocess.run([SERVER, "scratch-db", "--drop", name], capture_output=True, check=False)


def _login(url: str, password: str, username: str = "admin") -> httpx.Response:
    body = {"username": username, "password": password}
    return httpx.post(url + "/api/v1/auth/login", json=body, timeout=30)


def test_a_session_made_on_one_replica_holds_and_ends_on_the_other(
    replicas: tuple[list[str], str, dict[str, str]],
) -> None:
    (a, b), _, _ = replicas
    signed = _login(a, PASSWORD)
    assert signed.status_code == 200, signed.text
    cookies = signed.cookies
    me = httpx.get(b + "/api/v1/auth/me", cookies=cookies, timeout=30)
    assert me.status_code == 200 and me.json()["username"] == "admin", me.text
    out = httpx.post(
        b + "/api/v1/auth/logout", cookies=cookies, headers={"x-benchdash-csrf": "1"}, timeout=30
    )
    assert out.status_code == 204, out.text
    assert httpx.get(a + "/api/v1/auth/me", cookies=cookies, timeout=30).json() is None


def test_sign_in_throttling_counts_attempts_on_every_replica(
    replicas: tuple[list[str], str, dict[str, str]],
) -> None:
    (a, b), _, _ = replicas
    # another user name than the session test's, so the order of the tests does not matter
    codes = [_login((a, b)[i % 2], "wrong", "guesser").status_code for i in range(8)]
    assert codes[:5] == [401] * 5, codes  # five free attempts, whichever replica saw them
    assert 429 in codes[5:], codes


def test_a_run_triggered_on_one_replica_streams_from_the_other(
    replicas: tuple[list[str], str, dict[str, str]],
) -> None:
    (a, b), token, _ = replicas
    auth = {"Authorization": f"Bearer {token}"}
    manifest = {
        "system": "selftest",
        "name": "selftest",
        "driver": {"command": ["runners/selftest/driver.py"], "adapter": "benchdash"},
        "profiles": {"quick": {"time_limit_s": 60, "repetitions": 1}},
        "metrics": [{"name": "ops", "unit": "ops/s", "direction": "higher_is_better"}],
    }
    r = httpx.put(a + "/api/v1/systems/selftest/manifest", json=manifest, headers=auth, timeout=30)
    assert r.status_code == 200, r.text
    body = {"system": "selftest", "ref": "main"}
    r = httpx.post(a + "/api/v1/runs", json=body, headers=auth, timeout=30)
    assert r.status_code == 201, r.text
    run_id = r.json()["id"]
    claim = {"name": "replica-agent/1", "host": "replica-host"}
    took = httpx.post(
        b + "/api/v1/systems/selftest/agents/claim", json=claim, headers=auth, timeout=30
    )
    assert took.json()["run_id"] == run_id, took.text
    for status in ("building", "running"):
        body = {"status": status, "lines": [f"now {status}"]}
        r = httpx.post(a + f"/api/v1/runs/{run_id}/report", json=body, headers=auth, timeout=30)
        assert r.status_code == 200, r.text
    seen: list[str] = []
    with httpx.stream("GET", b + f"/api/v1/runs/{run_id}/events", timeout=30) as stream:
        for line in stream.iter_lines():
            if line.startswith("event: "):
                seen.append(line.removeprefix("event: "))
            if seen.count("state") >= 3:  # queued, building, running
                break
    assert seen[0] == "snapshot" and seen.count("state") >= 3, seen
    assert "log" in seen, seen
    cancel = httpx.post(b + f"/api/v1/runs/{run_id}/cancel", headers=auth, timeout=30)
    assert cancel.status_code == 200 and cancel.json()["cancel_requested"], cancel.text
    ack = httpx.post(a + f"/api/v1/runs/{run_id}/report", json={}, headers=auth, timeout=30)
    assert ack.json()["cancel_requested"] is True  # the other replica's cancel, seen here


def _document(i: int) -> dict[str, Any]:
    return {
        "schema": "benchdash/v1",
        "system": "spread",
        "run": {"external_id": f"spread-{i}", "commit": f"{i:07x}", "branch": "main"},
        "environment": {"os": "Linux"},
        "results": [
            {
                "benchmark": "b",
                "metrics": [
                    {"name": "t", "unit": "ns", "direction": "lower_is_better", "value": 100 + i}
                ],
            }
        ],
    }


def test_uploads_spread_over_replicas_survive_one_killed(
    replicas: tuple[list[str], str, dict[str, str]],
) -> None:
    (a, b), token, env = replicas
    third, c = start_server(env)  # a replica this test may kill
    auth = {"Authorization": f"Bearer {token}"}
    codes: dict[int, int] = {}
    try:
        for i in range(60):
            if i == 30:
                os.killpg(third.pid, signal.SIGKILL)  # the replica: supervisor and workers
                third.wait()
            for url in ((a, c, b)[i % 3], a, b):  # a client retries another replica
                try:
                    r = httpx.post(
                        url + "/api/v1/results", json=_document(i), headers=auth, timeout=60
                    )
                except httpx.TransportError:
                    continue
                codes[i] = r.status_code
                break
    finally:
        stop(third)
    # 201, or 200 "already stored" when a retry follows an answer lost in transit
    assert sorted(codes) == list(range(60)) and set(codes.values()) <= {200, 201}, codes
    runs = httpx.get(
        a + "/api/v1/runs", params={"system": "spread", "limit": 500}, timeout=30
    ).json()
    assert runs["total"] == 60  # nothing lost, nothing doubled
