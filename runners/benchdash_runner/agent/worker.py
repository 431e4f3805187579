"""`benchdash-runner --system S`: register the manifest, then work the system's queue.

The worker survives its database: when PostgreSQL restarts (or the network drops), procrastinate
stops its worker; the agent then opens a new connection pool and starts a new worker, after a
backoff that grows from 1 s to 30 s while the database stays away. Only SIGINT or SIGTERM end
the agent (a second one ends it at once, without waiting for the running benchmark).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import socket
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from procrastinate import App, PsycopgConnector

from benchdash_runner.agent.api import AgentApi, ApiError
from benchdash_runner.agent.execute import AgentSettings, execute
from benchdash_runner.agent.manifest import Manifest, ManifestError, load
from benchdash_runner.childenv import hide_own_environment

RUN_TASK = "benchdash.run"
FIRST_BACKOFF_S, MAX_BACKOFF_S = 1.0, 30.0
HEARTBEAT_S = 10.0  # the API counts an agent online for 30 s after one (BENCHDASH_AGENT_LIVE_S)
log = logging.getLogger("benchdash.runner")


def libpq_url(url: str) -> str:
    """psycopg wants plain postgresql:// URLs; accept SQLAlchemy's too."""
    for prefix in ("postgresql+psycopg://", "postgresql+psycopg2://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql://" + url[len(prefix) :]
    return url


def build_app(manifest: Manifest, api: AgentApi, settings: AgentSettings) -> App:
    """A procrastinate app with the run task on `system.<slug>` and the manifest's schedule."""
    # procrastinate's pool checks each connection before use, so connections that a database
    # restart broke are replaced; what it cannot hide (the LISTEN connection) stops the worker.
    app = App(connector=PsycopgConnector(conninfo=settings.database_url))
    queue = f"system.{manifest.system}"

    @app.task(name=RUN_TASK, queue=queue)
    def run_task(run_id: int) -> None:
        state = execute(run_id, api=api, manifest=manifest, settings=settings)
        log.info("run %s finished: %s", run_id, state)

    if manifest.cron:
        profile = manifest.cron_profile

        @app.periodic(cron=manifest.cron, periodic_id=manifest.system)
        @app.task(name=f"benchdash.schedule.{manifest.system}", queue=queue, pass_context=False)
        def scheduled(timestamp: int) -> None:
            run = api.schedule(manifest.system, profile)
            log.info("scheduled run %s queued (tick %s)", run["id"], timestamp)

    return app


def parser() -> argparse.ArgumentParser:
    """Command-line options; every one also reads an environment variable."""
    p = argparse.ArgumentParser(prog="benchdash-runner", description=__doc__)
    p.add_argument("--system", required=True, help="system slug (runners/<system>/runner.toml)")
    p.add_argument("--repo", type=Path, default=Path(os.environ.get("BENCHDASH_REPO", ".")))
    p.add_argument("--api", default=os.environ.get("BENCHDASH_URL", "http://127.0.0.1:8000"))
    p.add_argument("--token", default=os.environ.get("BENCHDASH_TOKEN"))
    p.add_argument("--database-url", default=os.environ.get("DATABASE_URL"))
    p.add_argument(
        "--workdir", type=Path, default=None, help="default: <repo>/.data/agents/<system>"
    )
    p.add_argument("--host-id", default=os.environ.get("BENCHDASH_HOST_ID") or socket.gethostname())
    p.add_argument("--heartbeat", type=float, default=2.0, help="seconds between reports")
    return p


def main(argv: list[str] | None = None) -> int:
    """Run the agent until SIGINT/SIGTERM."""
    hide_own_environment()  # the benchmarks it starts cannot read its token from /proc
    args = parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    if not args.token:
        print("benchdash-runner: set BENCHDASH_TOKEN (scopes agent + upload)", file=sys.stderr)
        return 1
    if not args.database_url:
        print("benchdash-runner: set DATABASE_URL (the queue lives in PostgreSQL)", file=sys.stderr)
        return 1
    repo = args.repo.resolve()
    try:
        manifest = load(repo, args.system)
    except ManifestError as exc:
        print(f"benchdash-runner: {exc}", file=sys.stderr)
        return 1
    settings = AgentSettings(
        repo=repo,
        workdir=(args.workdir or repo / ".data" / "agents" / args.system).resolve(),
        host_id=args.host_id,
        name=f"{socket.gethostname()}/{os.getpid()}",
        database_url=libpq_url(args.database_url),
        heartbeat_s=args.heartbeat,
    )
    api = AgentApi(args.api, args.token)
    try:
        api.register(args.system, _jsonable(manifest.raw))
    except ApiError as exc:
        print(f"benchdash-runner: cannot register {args.system}: {exc}", file=sys.stderr)
        return 1
    log.info(
        "agent %s for %s on host %s: queue system.%s",
        settings.name,
        args.system,
        settings.host_id,
        args.system,
    )
    stop_beating = threading.Event()
    beats = threading.Thread(
        target=heartbeats,
        args=(AgentApi(args.api, args.token, timeout=10), args.system, settings, stop_beating),
        daemon=True,
    )
    beats.start()
    try:
        asyncio.run(serve(lambda: build_app(manifest, api, settings), settings.name, args.system))
    finally:
        stop_beating.set()
        api.close()
    return 0


def heartbeats(api: AgentApi, system: str, settings: AgentSettings, stop: threading.Event) -> None:
    """Tell the API every HEARTBEAT_S that this agent is online (busy or idle) until `stop`."""
    try:
        while True:
            try:
                api.heartbeat(system, settings.name, settings.host_id)
            except ApiError as exc:  # the API may be restarting: the next one will do
                log.warning("heartbeat failed: %s", exc)
            if stop.wait(HEARTBEAT_S):
                return
    finally:
        api.close()


async def serve(make_app: Callable[[], App], name: str, system: str) -> None:
    """Run a worker on the system's queue until a signal; restart it when it dies."""
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()

    def on_signal() -> None:
        log.info("stopping: the running benchmark, if any, finishes first (signal again to quit)")
        stopping.set()
        for sig in (signal.SIGINT, signal.SIGTERM):  # a second signal ends the agent at once
            loop.remove_signal_handler(sig)
            signal.signal(sig, signal.SIG_DFL)

    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, on_signal)
    delay = FIRST_BACKOFF_S
    while not stopping.is_set():
        started = loop.time()
        try:
            if await _work(make_app(), name, system, stopping):
                return
            log.warning("worker stopped (database connection lost?)")
        except Exception as exc:  # the database is down or went away: try again later
            reason = str(exc.__cause__ or exc).strip().splitlines()
            log.warning("worker failed: %s: %s", type(exc).__name__, reason[0] if reason else "")
        if loop.time() - started > 2 * MAX_BACKOFF_S:
            delay = FIRST_BACKOFF_S  # it had been working: start again quickly
        log.info("restarting the worker in %.0f s", delay)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stopping.wait(), delay)
        delay = min(delay * 2, MAX_BACKOFF_S)


async def _work(app: App, name: str, system: str, stopping: asyncio.Event) -> bool:
    """One worker's life; True when it ended because the agent is stopping."""
    stop = asyncio.create_task(stopping.wait())
    opening = asyncio.create_task(_open(app))  # waits for the database (up to 30 s)
    try:
        await asyncio.wait({opening, stop}, return_when=asyncio.FIRST_COMPLETED)
        if stop.done():
            opening.cancel()
            return True
        opening.result()  # raises when the database cannot be reached
        worker = asyncio.create_task(
            app.run_worker_async(
                queues=[f"system.{system}"],
                concurrency=1,
                name=name,
                install_signal_handlers=False,
            )
        )
        await asyncio.wait({worker, stop}, return_when=asyncio.FIRST_COMPLETED)
        if stop.done():
            worker.cancel()  # procrastinate stops gracefully: the running job finishes
            with contextlib.suppress(asyncio.CancelledError):
                await worker
            return True
        worker.result()  # raises what stopped it
        return False
    finally:
        stop.cancel()
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await app.close_async()


async def _open(app: App) -> None:
    await app.open_async()


def _jsonable(raw: dict[str, Any]) -> dict[str, Any]:
    """TOML dates and times become strings for the JSON body."""
    import json

    return dict(json.loads(json.dumps(raw, default=str)))


if __name__ == "__main__":
    raise SystemExit(main())
