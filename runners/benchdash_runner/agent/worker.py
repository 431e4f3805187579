"""`benchdash-runner --system S`: register the manifest, then ask the API for the system's runs.

The agent talks to the API only, with a token of its own system's scope; it never reaches the
database. Idle, it asks for work (`POST /systems/S/agents/claim`) and the API holds the question up
to `--wait` seconds (30: at most 2 asks a minute), answering the moment a run is queued; it hands
the agent the oldest queued run unless its host is busy with another run (one benchmark per host),
and counts the waiting agent online. Idle, the agent logs nothing. While the API is away
(restarting, or its database is) the agent waits, backing off from 1 s to 30 s. Only SIGINT or
SIGTERM end it (a second one ends it at once, without waiting for the running benchmark). The
manifest's cron runs are queued by the API.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import socket
import sys
import threading
import time
from pathlib import Path
from types import FrameType
from typing import Any

from benchdash_runner.agent import project
from benchdash_runner.agent.api import AgentApi, ApiError
from benchdash_runner.agent.execute import AgentSettings, execute
from benchdash_runner.agent.manifest import Manifest, ManifestError
from benchdash_runner.childenv import hide_own_environment

FIRST_BACKOFF_S, MAX_BACKOFF_S = 1.0, 30.0
HEARTBEAT_S = 10.0  # the API counts an agent online for 30 s after one (BENCHDASH_AGENT_LIVE_S)
log = logging.getLogger("benchdash.runner")


def parser() -> argparse.ArgumentParser:
    """Command-line options; every one also reads an environment variable."""
    p = argparse.ArgumentParser(prog="benchdash-runner", description=__doc__)
    p.add_argument(
        "--system",
        required=True,
        help="system slug (runners/<system>/runner.toml, else the benchdash.toml of its source)",
    )
    p.add_argument(
        "--source",
        default=os.environ.get("BENCHDASH_SOURCE_URL") or None,
        help="a project's git URL (default: the system's source, as the API has it)",
    )
    p.add_argument("--repo", type=Path, default=Path(os.environ.get("BENCHDASH_REPO", ".")))
    p.add_argument("--api", default=os.environ.get("BENCHDASH_URL", "http://127.0.0.1:8000"))
    p.add_argument("--token", default=os.environ.get("BENCHDASH_TOKEN"))
    p.add_argument(
        "--workdir", type=Path, default=None, help="default: <repo>/.data/agents/<system>"
    )
    p.add_argument("--host-id", default=os.environ.get("BENCHDASH_HOST_ID") or socket.gethostname())
    p.add_argument("--heartbeat", type=float, default=2.0, help="seconds between reports")
    p.add_argument("--poll", type=float, default=1.0, help="least seconds between asks for work")
    p.add_argument(
        "--wait", type=float, default=30.0, help="seconds the API may hold an ask for work (0-30)"
    )
    return p


def main(argv: list[str] | None = None) -> int:
    """Run the agent until SIGINT/SIGTERM."""
    hide_own_environment()  # the benchmarks it starts cannot read its token from /proc
    args = parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)  # not a line per request
    if not args.token:
        print("benchdash-runner: set BENCHDASH_TOKEN (scopes agent + upload)", file=sys.stderr)
        return 1
    repo = args.repo.resolve()
    workdir = (args.workdir or repo / ".data" / "agents" / args.system).resolve()
    api = AgentApi(args.api, args.token)
    try:
        manifest, source_url = project.at_start(api, repo, args.system, workdir, args.source)
        api.register(args.system, _jsonable(manifest.raw))
    except (ManifestError, ApiError) as exc:
        print(f"benchdash-runner: cannot register {args.system}: {exc}", file=sys.stderr)
        api.close()
        return 1
    settings = AgentSettings(
        repo=repo,
        workdir=workdir,
        host_id=args.host_id,
        name=f"{socket.gethostname()}/{os.getpid()}",
        heartbeat_s=args.heartbeat,
        poll_s=args.poll,
        wait_s=args.wait,
        source_url=source_url,
    )
    log.info("agent %s for %s on host %s", settings.name, args.system, settings.host_id)
    stopping, busy = threading.Event(), threading.Event()
    beats = threading.Thread(
        target=heartbeats,
        args=(AgentApi(args.api, args.token, timeout=10), args.system, settings, stopping, busy),
        daemon=True,
    )
    beats.start()
    _on_signals(stopping)
    try:
        work(api, manifest, settings, stopping, busy)
    finally:
        stopping.set()
        api.close()
    return 0


def work(
    api: AgentApi,
    manifest: Manifest,
    settings: AgentSettings,
    stop: threading.Event,
    busy: threading.Event | None = None,
) -> None:
    """Ask for runs and carry them out, one at a time, until `stop` (`busy` while one runs)."""
    delay, said = FIRST_BACKOFF_S, None
    busy = busy or threading.Event()
    while not stop.is_set():
        asked = time.monotonic()
        try:
            got = api.claim(manifest.system, settings.name, settings.host_id, settings.wait_s)
        except ApiError as exc:  # the API (or its database) is away: wait and ask again
            log.warning("cannot ask for work: %s; again in %.0f s", exc, delay)
            stop.wait(delay)
            delay = min(delay * 2, MAX_BACKOFF_S)
            continue
        delay = FIRST_BACKOFF_S
        if got.run_id is None:
            if got.reason != said and got.reason:
                log.info("waiting: %s", got.reason)
            said = got.reason
            # A held ask asks again at once; a quick answer (a busy host, an API that does not
            # hold asks) waits out the rest of `poll_s`.
            stop.wait(max(0.0, settings.poll_s - (time.monotonic() - asked)))
            continue
        said = None
        busy.set()
        try:
            state = execute(
                got.run_id,
                api=api,
                manifest=manifest,
                settings=settings,
                source_url=got.source_url or settings.source_url,
            )
        except ApiError as exc:  # the reaper fails the run if it stays silent
            log.warning("run %s: the API could not be reached: %s", got.run_id, exc)
            continue
        finally:
            busy.clear()
        log.info("run %s finished: %s", got.run_id, state)


def heartbeats(
    api: AgentApi,
    system: str,
    settings: AgentSettings,
    stop: threading.Event,
    busy: threading.Event,
) -> None:
    """Tell the API that this agent is online once at its start, then every HEARTBEAT_S while it
    runs a benchmark, until `stop` (idle, its held ask for work says so)."""
    first = True
    try:
        while True:
            if first or busy.is_set() or settings.wait_s <= 0:
                first = False
                try:
                    api.heartbeat(system, settings.name, settings.host_id)
                except ApiError as exc:  # the API may be restarting: the next one will do
                    log.warning("heartbeat failed: %s", exc)
            if stop.wait(HEARTBEAT_S):
                return
    finally:
        api.close()


def _on_signals(stopping: threading.Event) -> None:
    """The first SIGINT/SIGTERM stops after the running benchmark; a second one at once."""

    def handle(signum: int, _frame: FrameType | None) -> None:
        if stopping.is_set():
            raise SystemExit(128 + signum)
        log.info("stopping: the running benchmark, if any, finishes first (signal again to quit)")
        stopping.set()

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, handle)


def _jsonable(raw: dict[str, Any]) -> dict[str, Any]:
    """TOML dates and times become strings for the JSON body."""
    return dict(json.loads(json.dumps(raw, default=str)))


if __name__ == "__main__":
    raise SystemExit(main())
