"""`make test-compose`: the Compose stack for real, from base images to benchmarks and back down.

Phases (each timed): Docker engine (started if none answers, stopped after if we started it),
base images (official ones pulled, else local stand-ins from scripts/offline-images), build,
up, health, sign-in through the published port, a quick run of every system that has a
runner service (followed over server-sent events to `completed`), the measurements and
verdicts stored, `restart` (nothing lost), `down` + `up` (nothing lost, runners still work),
`down -v`. Everything is stopped on every exit path, Ctrl-C included.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.compose.client import LEVELS, Client
from tests.compose.engine import ROOT, Compose

PROJECT = "benchdash-compose-test"
# Compose output worth showing (v1 and v2): images built, containers and volumes changed.
BUILT = r"(Building \S+$|Successfully tagged)"
UP = r"(Creat|Start|Stop|Restart|Remov|\s*(Container|Volume|Network) )"
TIMES: list[tuple[str, float]] = []


@contextmanager
def phase(name: str) -> Iterator[None]:
    """Time a phase and print it as it starts and ends."""
    print(f"== {name}", flush=True)
    t0 = time.monotonic()
    try:
        yield
    finally:
        TIMES.append((name, time.monotonic() - t0))
        print(f"   {name}: {TIMES[-1][1]:.0f} s", flush=True)


def free_port() -> int:
    """A TCP port free on this machine right now (where the API gets published)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def write_env(path: Path, port: int) -> dict[str, str]:
    """The stack's settings, fresh secrets included, as a Compose env file."""
    env = {
        "POSTGRES_PASSWORD": secrets.token_urlsafe(16),
        "BENCHDASH_SECRET_KEY": secrets.token_urlsafe(32),
        "BENCHDASH_ENVIRONMENT": "production",
        "BENCHDASH_ADMIN_USERNAME": "admin",
        "BENCHDASH_ADMIN_PASSWORD": secrets.token_urlsafe(16),
        **{  # one token per runner agent, as `make up` writes them
            f"BENCHDASH_AGENT_TOKEN_{s.upper().replace('-', '_')}": (
                f"bd_{secrets.token_hex(6)}_{secrets.token_urlsafe(32)}"
            )
            for s in ("cachex", "galay-ssl", "pointsub", "relay", "uvhttp")
        },
        "BENCHDASH_PUBLIC_READ": "true",
        "BENCHDASH_PUBLISH_PORT": str(port),
        "BENCHDASH_HOST_ID": "compose-test",
        # the scale profile (tests/compose/scale.py): its replication role, nginx's port
        "POSTGRES_REPLICATION_PASSWORD": secrets.token_urlsafe(16),
        "BENCHDASH_SCALE_PORT": str(free_port()),
    }
    path.write_text("".join(f"{k}={v}\n" for k, v in env.items()))
    return env


def check_run(client: Client, run_id: int, stream: list[tuple[str, dict[str, Any]]]) -> float:
    """The run completed inside its container, with measurements, verdicts and progress;
    returns its duration in seconds."""
    detail = client.call("GET", f"/api/v1/runs/{run_id}")
    system = detail["system"]
    states = [d["status"] for k, d in stream if k == "state"]
    if detail["status"] != "completed":
        lines = [line for k, d in stream if k == "log" for line in d.get("lines", [])]
        print(f"   [{system}] end of the run's log:", *lines[-40:], sep="\n     ", flush=True)
    assert detail["status"] == "completed", f"{system}: {detail['status']}: {detail['message']}"
    assert "running" in states and states[-1] == "completed", (system, states)
    assert any(k == "progress" for k, _ in stream), f"{system}: no progress event"
    declared = {m["name"] for m in client.call("GET", f"/api/v1/systems/{system}")["metrics"]}
    ms = detail["measurements"]
    assert ms, f"{system}: no measurements stored"
    assert {m["metric"] for m in ms} <= declared, f"{system}: undeclared metrics"
    assert all(m["level"] in LEVELS and m["explanation"] and m["n"] >= 1 for m in ms), system
    if (ROOT / ".git").is_dir():  # an image built from a copy without history runs "as built"
        assert detail["commit"], f"{system}: the run has no commit"
    took = dt.datetime.fromisoformat(detail["finished_at"]) - dt.datetime.fromisoformat(
        detail["started_at"]
    )
    levels = ", ".join(sorted({m["level"] for m in ms}))
    print(
        f"   {system}: run {run_id} completed in {took.total_seconds():.0f} s, "
        f"{len(ms)} measurements ({levels})",
        flush=True,
    )
    return took.total_seconds()


def run_systems(client: Client, systems: list[str], timeout: float) -> dict[str, float]:
    """Trigger a quick run of each system, follow each to its end, check what was stored;
    returns each run's duration."""
    runs = {}
    for system in systems:
        body = {"system": system, "ref": "HEAD", "profile": "quick"}
        runs[system] = client.call("POST", "/api/v1/runs", body)["id"]
    deadline = time.monotonic() + timeout
    took: dict[str, float] = {}
    failures: list[str] = []
    for system, run_id in runs.items():

        def show(kind: str, data: dict[str, Any], system: str = system) -> None:
            if kind == "state":
                print(f"   [{system}] {data['status']}", flush=True)
            elif kind == "progress" and data.get("scenario"):
                print(
                    f"   [{system}] {data['done'] + 1}/{data['total']} {data['scenario']}",
                    flush=True,
                )

        stream = client.events(run_id, max(deadline - time.monotonic(), 1), show)
        try:
            took[system] = check_run(client, run_id, stream)
        except AssertionError as exc:  # follow the others too, then fail naming every one
            failures.append(str(exc))
            print(f"   FAILED: {exc}", flush=True)
    assert not failures, "; ".join(failures)
    return took


def wait_services(compose: Compose, timeout: float = 180) -> dict[str, str]:
    """Every long-running service running (api healthy), migrate exited 0."""
    deadline = time.monotonic() + timeout
    while True:
        states = compose.states()
        good = all(
            s == "exited (0)"
            if name == "migrate"
            else s.startswith("running") and ("health" not in s or s.endswith(" healthy"))
            for name, s in states.items()
        )
        if good and states.get("api") == "running healthy":
            return states
        if time.monotonic() > deadline:
            raise AssertionError(f"services not up within {timeout:.0f} s: {states}")
        time.sleep(2)


def same_data(client: Client, before: dict[str, Any], when: str) -> None:
    """Everything stored before is still there, unchanged."""
    after = client.snapshot()
    lost = {k: v for k, v in before.items() if after.get(k) != v}
    assert not lost, f"after {when} these changed or vanished: {json.dumps(lost)[:2000]}"
    print(f"   after {when}: {len(before) - 1} runs and their measurements intact", flush=True)


def base_images() -> None:
    """Every FROM / image: name present: pulled, else a stand-in (scripts/offline-images)."""
    with phase("base images (pull, else stand-ins)"):
        subprocess.run(
            [sys.executable, str(ROOT / "scripts" / "offline-images"), "--try-pull"], check=True
        )


def scenario(compose: Compose, env: dict[str, str], args: argparse.Namespace) -> None:
    """Every phase after the engine is up."""
    client = Client(f"http://127.0.0.1:{env['BENCHDASH_PUBLISH_PORT']}")
    base_images()
    declared = compose.out("config", "--services").split()
    runners = sorted(s for s in declared if s.startswith("runner-"))
    if args.systems:
        runners = [r for r in runners if r.removeprefix("runner-") in args.systems]
    systems = [r.removeprefix("runner-") for r in runners]
    assert systems, f"no runner-<system> service to test in docker-compose.yml: {declared}"
    stack = ["db", "migrate", "api", *runners]
    with phase("build images"):
        # In parallel (v1 needs --parallel; v2 always does); migrate, built from the API's
        # Dockerfile, after: from the cache.
        v1 = ["--parallel", "--force-rm"] if compose.v1 else []  # no build containers left
        compose.run("build", *v1, "api", *runners, echo=BUILT)
        compose.run("build", "migrate", echo=BUILT)
    with phase("up -d"):
        compose.run("up", "-d", *stack, echo=UP)
    with phase("healthy"):
        client.ready(300)
        print(f"   {wait_services(compose)}", flush=True)
    with phase("sign in"):
        client.sign_in(env["BENCHDASH_ADMIN_USERNAME"], env["BENCHDASH_ADMIN_PASSWORD"])
    with phase(f"quick runs ({', '.join(systems)})"):
        for system in systems:
            client.wait_registered(system, 120)
        took = run_systems(client, systems, args.run_timeout)
    before = client.snapshot()
    with phase("restart"):
        compose.run("restart", echo=UP)
        client.ready(300)
        wait_services(compose)
        me = client.call("GET", "/api/v1/auth/me")  # the session cookie survived too
        assert me and me["username"] == env["BENCHDASH_ADMIN_USERNAME"], me
        same_data(client, before, "restart")
    with phase("down + up"):
        compose.run("down", echo=UP)
        compose.run("up", "-d", *stack, echo=UP)
        client.ready(300)
        wait_services(compose)
        client.sign_in(env["BENCHDASH_ADMIN_USERNAME"], env["BENCHDASH_ADMIN_PASSWORD"])
        same_data(client, before, "down + up")
    fastest = min(took, key=lambda system: took[system])
    with phase(f"a quick run of {fastest} after down + up"):
        run_systems(client, [fastest], args.run_timeout)
        same_data(client, before, "a new run")
    with phase("down -v"):
        print(f"   services' logs in {compose.save_logs()}", flush=True)
        compose.run("down", "-v", "--remove-orphans", echo=UP)
        volumes = subprocess.run(
            ["docker", "volume", "ls", "-q", "--filter", f"name={PROJECT}"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        assert not volumes, f"volumes left: {volumes}"
