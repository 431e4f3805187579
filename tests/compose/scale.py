"""`make test-compose`, the `scale` profile: nginx, two API replicas, a streaming replica, two
agents of cachex (docker-compose.yml), driven through nginx's published port only.

Phases: build (from the images the main scenario built: the cache), up, the standby streaming,
an upload stream with api-2 killed in the middle (every acknowledged upload stored exactly once,
retries idempotent by external id), two quick runs triggered through nginx and followed over its
server-sent events, each carried out by one of the two agents, and a series read served by the
replica (its replay paused: a reader sees the standby's rows while the writer sees its own on
the primary), then `down -v`. Before the runs, sign-in throttling is checked per client address
through nginx (tests/compose/scale_signin.py).
"""

from __future__ import annotations

import subprocess
import time

from tests.compose.client import Client
from tests.compose.engine import Compose
from tests.compose.run import BUILT, UP, check_run, phase
from tests.compose.scale_signin import guesses_from_one_client_leave_the_admin_in
from tests.compose.scale_stream import (
    BENCH,
    BRANCH,
    METRIC,
    Uploads,
    log_length,
    served_by,
    sql,
    upload,
)

SERVICES = ["db-replica", "api-1", "api-2", "nginx", "agent-cachex-1", "agent-cachex-2"]
AGENTS = ["agent-cachex-1", "agent-cachex-2"]
STREAM = 400  # uploads; api-2 is killed once a fifth of them are acknowledged


def _container(compose: Compose, service: str, fmt: str) -> str:
    ids = compose.out("ps", "-q", service).split()
    assert ids, f"no container of {service}"
    return subprocess.run(
        ["docker", "inspect", "-f", fmt, ids[0]], capture_output=True, text=True, check=True
    ).stdout.strip()


def _ip(compose: Compose, service: str) -> str:
    return _container(compose, service, "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}")


def _wait_up(compose: Compose, timeout: float = 300) -> dict[str, str]:
    deadline = time.monotonic() + timeout
    while True:
        states = compose.states()
        once = {"migrate", "db-replication"}
        good = all(
            s == "exited (0)" if name in once else s.startswith("running") and "starting" not in s
            for name, s in states.items()
        )
        if good and set(SERVICES) <= set(states):
            return states
        if time.monotonic() > deadline:
            raise AssertionError(f"the scale stack was not up within {timeout:.0f} s: {states}")
        time.sleep(2)


def _streaming(compose: Compose) -> None:
    rows = sql(compose, "db", "SELECT application_name, state FROM pg_stat_replication")
    assert any(r.endswith("|streaming") for r in rows), f"no standby streaming: {rows}"
    assert sql(compose, "db-replica", "SELECT pg_is_in_recovery()") == ["t"]
    print(f"   pg_stat_replication on db: {rows}; db-replica is in recovery", flush=True)


def _stream_with_a_kill(compose: Compose, base: str, token: str) -> None:
    ips = {"api-1": _ip(compose, "api-1"), "api-2": _ip(compose, "api-2")}
    uploads = Uploads(base, token, STREAM, clients=4, pause=0.25)
    uploads.start()
    uploads.wait_acknowledged(STREAM // 5, 120)
    compose.run("kill", "api-2", echo=UP)  # SIGKILL: what it was answering is cut off
    killed = (log_length(compose), len(uploads.acknowledged))
    uploads.join(300)
    print(f"   {uploads.summary()}", flush=True)
    assert not uploads.failures, uploads.failures[:5]
    assert STREAM - killed[1] >= STREAM // 4, f"the stream was nearly over at the kill: {killed}"
    stored = sql(
        compose,
        "db",
        "SELECT external_id, count(*) FROM run WHERE external_id LIKE 'scale-%' "
        "GROUP BY external_id",
    )
    counts = dict(r.split("|") for r in stored)
    assert set(counts) == set(uploads.acknowledged), set(uploads.acknowledged) ^ set(counts)
    assert set(counts.values()) == {"1"}, {k: v for k, v in counts.items() if v != "1"}
    ids = sql(compose, "db", "SELECT id FROM run WHERE external_id LIKE 'scale-%'")
    assert sorted(uploads.acknowledged.values()) == sorted(map(int, ids))
    before, after = served_by(compose, until=killed[0]), served_by(compose, since=killed[0])
    assert {ips["api-1"], ips["api-2"]} <= set(before), (ips, before)
    assert after and set(after) == {ips["api-1"]}, f"after the kill, served by {after}"
    print(
        f"   {len(counts)} uploads stored once each ({STREAM - killed[1]} acknowledged after "
        f"the kill); api-1 answered {before[ips['api-1']]} and api-2 {before[ips['api-2']]} "
        f"before it, api-1 alone {after[ips['api-1']]} after it",
        flush=True,
    )


def _runs_by_the_agents(compose: Compose, client: Client) -> None:
    hosts = {_container(compose, a, "{{.Config.Hostname}}"): a for a in AGENTS}
    ips = {_ip(compose, "api-1"), _ip(compose, "api-2")}
    since = log_length(compose)
    deadline = time.monotonic() + 120
    while len(sql(compose, "db", "SELECT name FROM runner_agent")) < 2:
        assert time.monotonic() < deadline, "the two agents did not both report"
        time.sleep(1)
    t0 = time.monotonic()
    body = {"system": "cachex", "ref": "HEAD", "profile": "quick"}
    runs = [client.call("POST", "/api/v1/runs", body)["id"] for _ in AGENTS]
    by = []
    seen: dict[int, list[float]] = {r: [] for r in runs}  # when each event came
    for run_id in runs:  # followed through nginx: its events pass unbuffered
        times = seen[run_id]
        stream = client.events(run_id, 900, lambda *_, t=times: t.append(time.monotonic()))
        check_run(client, run_id, stream)
        agent = client.call("GET", f"/api/v1/runs/{run_id}")["agent"]
        by.append(hosts.get(str(agent).split("/")[0]))
        assert by[-1], f"run {run_id} carried out by {agent}, not one of {hosts}"
    first = seen[runs[0]]  # followed from its start: its events come over its minute or so
    assert first[-1] - first[0] > 5, "the run's events came all at once (buffered?)"
    served = served_by(compose, since=since)
    assert ips <= set(served), f"both replicas serve again: {ips} vs {served}"
    print(f"   2 runs in {time.monotonic() - t0:.0f} s, carried out by {by}", flush=True)


def _read_from_the_replica(compose: Compose, base: str, token: str) -> None:
    reader = Client(base)
    query = f"/api/v1/series?system=cachex&benchmark={BENCH}&metric={METRIC}&branch={BRANCH}"

    def points(client: Client) -> int:
        return len(client.call("GET", query)["points"])

    n = points(reader)
    assert n >= STREAM, f"the stream's series has {n} points"
    sql(compose, "db-replica", "SELECT pg_wal_replay_pause()")
    try:
        status, cookie = upload(base, token, "scale-replica-check")
        assert status == 201 and cookie and "benchdash_fresh=1" in cookie, (status, cookie)
        count = "SELECT count(*) FROM run WHERE external_id = 'scale-replica-check'"
        time.sleep(1)  # replay would have caught up by now, were it not paused
        on = {s: sql(compose, s, count) for s in ("db", "db-replica")}
        assert on == {"db": ["1"], "db-replica": ["0"]}, f"the new run's rows: {on}"
        seen = [points(reader) for _ in range(4)]  # nginx takes turns: both replicas
        assert seen == [n] * 4, f"a reader saw {seen}, the standby holds {n}"
        writer = Client(base)
        writer.cookie = cookie.split(";", 1)[0]
        mine = points(writer)  # its own write: read from the primary
        assert mine == n + 1, f"the writer saw {mine} points, the primary holds {n + 1}"
    finally:
        sql(compose, "db-replica", "SELECT pg_wal_replay_resume()")
    deadline = time.monotonic() + 30
    while points(reader) != n + 1:
        assert time.monotonic() < deadline, "the standby did not catch up"
        time.sleep(0.2)
    print(f"   the standby (replay paused) answered {n} points, the writer saw {n + 1}", flush=True)
    took = []
    for _ in range(100):  # a figure for docs/scaling.md, not a goal: all of it on one machine
        t0 = time.monotonic()
        points(reader)
        took.append(1000 * (time.monotonic() - t0))
    took.sort()
    print(
        f"   {n + 1}-point reads through nginx (fresh connections, standby): p50 {took[49]:.1f} "
        f"ms, p90 {took[89]:.1f}, max {took[99]:.1f}",
        flush=True,
    )


def scale_scenario(compose: Compose, env: dict[str, str]) -> None:
    """Every phase of the scale profile; the caller has the engine and base images ready."""
    compose.base = [*compose.base, "--profile", "scale"]
    base = f"http://127.0.0.1:{env['BENCHDASH_SCALE_PORT']}"
    token = env["BENCHDASH_AGENT_TOKEN_CACHEX"]
    client = Client(base)
    with phase("scale: build (cached)"):
        v1 = ["--parallel", "--force-rm"] if compose.v1 else []
        compose.run("build", *v1, "api-1", "api-2", *AGENTS, echo=BUILT)
    with phase("scale: up -d, healthy"):
        compose.run("up", "-d", *SERVICES, echo=UP)
        client.ready(300)
        print(f"   {_wait_up(compose)}", flush=True)
        _streaming(compose)
    with phase("scale: uploads through nginx, api-2 killed mid-stream"):
        _stream_with_a_kill(compose, base, token)
    with phase("scale: api-2 back"):
        compose.run("start", "api-2", echo=UP)
        _wait_up(compose)
    with phase("scale: sign-in throttled per client address behind nginx"):
        password = env["BENCHDASH_ADMIN_PASSWORD"]
        guesses_from_one_client_leave_the_admin_in(compose, password, _ip)
    with phase("scale: two quick runs through nginx, by the two agents"):
        client.sign_in(env["BENCHDASH_ADMIN_USERNAME"], env["BENCHDASH_ADMIN_PASSWORD"])
        _runs_by_the_agents(compose, client)
    with phase("scale: a series read from the replica"):
        _read_from_the_replica(compose, base, token)
    with phase("scale: down -v"):
        compose.run("down", "-v", "--remove-orphans", echo=UP)
