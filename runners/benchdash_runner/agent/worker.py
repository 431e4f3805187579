"""`benchdash-runner --system S`: register the manifest, then work the system's queue."""

from __future__ import annotations

import argparse
import logging
import os
import socket
import sys
from pathlib import Path
from typing import Any

from procrastinate import App, PsycopgConnector

from benchdash_runner.agent.api import AgentApi, ApiError
from benchdash_runner.agent.execute import AgentSettings, execute
from benchdash_runner.agent.manifest import Manifest, ManifestError, load

RUN_TASK = "benchdash.run"
log = logging.getLogger("benchdash.runner")


def libpq_url(url: str) -> str:
    """psycopg wants plain postgresql:// URLs; accept SQLAlchemy's too."""
    for prefix in ("postgresql+psycopg://", "postgresql+psycopg2://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql://" + url[len(prefix) :]
    return url


def build_app(manifest: Manifest, api: AgentApi, settings: AgentSettings) -> App:
    """A procrastinate app with the run task on `system.<slug>` and the manifest's schedule."""
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
    args = parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    if not args.token:
        print("benchdash-runner: set BENCHDASH_TOKEN (scopes upload + trigger)", file=sys.stderr)
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
    app = build_app(manifest, api, settings)
    try:
        app.run_worker(queues=[f"system.{args.system}"], concurrency=1, name=settings.name)
    finally:
        api.close()
    return 0


def _jsonable(raw: dict[str, Any]) -> dict[str, Any]:
    """TOML dates and times become strings for the JSON body."""
    import json

    return dict(json.loads(json.dumps(raw, default=str)))


if __name__ == "__main__":
    raise SystemExit(main())
