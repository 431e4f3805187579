"""`benchdash-server` (also `benchdash <command>`): serve, migrate, tokens, users, demo."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from benchdash.auth.scopes import SCOPES

# The server's settings and schema tools (pydantic-settings, alembic) are imported by the
# commands that use them: `replay` starts in a fraction of the time without them.


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from benchdash.config import get_settings
    from benchdash.startup import bootstrap, migrate

    settings = get_settings()
    if not args.no_migrate:
        migrate(wait_s=args.wait)
    bootstrap()
    host, port = args.host or settings.host, args.port or settings.port
    print(f"benchdash API and UI on http://{host}:{port}/  (API docs: /api/docs)", flush=True)
    workers = args.workers or settings.workers
    uvicorn.run(
        "benchdash.serving:create_served_app",  # each worker's startup heap frozen for the GC
        factory=True,
        host=host,
        port=port,
        workers=workers,
        timeout_graceful_shutdown=10,  # SIGTERM: finish requests, close event streams
        proxy_headers=False,  # the app's own middleware reads them, from trusted proxies only
    )
    return 0


def cmd_migrate(args: argparse.Namespace) -> int:
    from benchdash.startup import bootstrap, migrate

    migrate(wait_s=args.wait)
    bootstrap()
    print("schema at head")
    return 0


def cmd_db_url(_: argparse.Namespace) -> int:
    from benchdash.db import database_url

    print(database_url())
    return 0


def cmd_db_stop(_: argparse.Namespace) -> int:
    from benchdash.config import get_settings
    from benchdash.kit.embedded import stop_server

    settings = get_settings()
    if settings.database_url:
        print("DATABASE_URL is set: that server is not ours to stop")
        return 0
    stopped = stop_server(settings.data_dir)
    print("embedded PostgreSQL stopped" if stopped else "embedded PostgreSQL was not running")
    return 0


def cmd_token_generate(_: argparse.Namespace) -> int:
    from benchdash.auth import service as auth_service

    print(auth_service.generate_plain())
    return 0


def cmd_scratch_db(args: argparse.Namespace) -> int:
    from sqlalchemy import create_engine, text

    from benchdash.db import database_url

    server = database_url()
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{args.name}" WITH (FORCE)'))
        if not args.drop:
            conn.execute(text(f'CREATE DATABASE "{args.name}"'))
    admin.dispose()
    if args.drop:
        return 0
    base, _, query = server.partition("?")
    print(base.rsplit("/", 1)[0] + f"/{args.name}" + (f"?{query}" if query else ""))
    return 0


def cmd_token(args: argparse.Namespace) -> int:
    from benchdash.startup import require_schema

    require_schema()
    from benchdash.auth import service as auth_service
    from benchdash.db import transaction

    with transaction() as session:
        token, plain = auth_service.create_token(
            session=session,
            name=args.name or f"{'+'.join(args.scope)} {' '.join(args.system) or 'all systems'}",
            scopes=args.scope,
            systems=args.system,
        )
        where = ", ".join(token.systems) or "every system"
        print(
            f"token {token.prefix} ({', '.join(token.scopes)}) for {where}; shown once:",
            file=sys.stderr,
        )
        print(plain)
    return 0


def cmd_user(args: argparse.Namespace) -> int:
    from benchdash.startup import require_schema

    require_schema()
    from benchdash.auth import service as auth_service
    from benchdash.db import transaction

    with transaction() as session:
        auth_service.ensure_user(
            session=session, username=args.username, password=args.password, is_admin=args.admin
        )
    print(f"user {args.username} ready")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from benchdash.startup import require_schema

    require_schema()
    from benchdash import demo
    from benchdash.db import transaction

    with transaction() as session:
        stored = demo.load(session=session, runs=args.runs, seed=args.seed, progress=True)
    print(f"demo loaded: {stored} runs")
    return 0


def cmd_openapi(_: argparse.Namespace) -> int:
    from benchdash.app import create_app

    print(json.dumps(create_app().openapi(), indent=2, sort_keys=True))
    return 0


def result_schema() -> str:
    """The JSON Schema of the benchdash/v1 document, as committed in runners/schema/."""
    from benchdash.results.schemas import DocumentIn

    schema = DocumentIn.model_json_schema(by_alias=True)
    schema["$id"] = "https://benchdash.dev/schema/benchdash-v1.json"
    schema["title"] = "benchdash/v1 result document"
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def cmd_schema(_: argparse.Namespace) -> int:
    sys.stdout.write(result_schema())
    return 0


def cmd_reorder(args: argparse.Namespace) -> int:
    from benchdash.db import transaction, utcnow
    from benchdash.results import reorder

    def shown(i: int, n: int, done: reorder.Reordered) -> None:
        print(
            f"[{100 * i // n:3d}%] {i}/{n} {done.partition}: {done.rows:,} rows in "
            f"{done.seconds:.1f} s",
            flush=True,
        )

    with transaction() as session:
        todo = reorder.pending(session=session, now=utcnow())
        print(f"{len(todo)} closed month(s) to rewrite in series order", flush=True)
        done = reorder.reorder(
            session=session, now=utcnow(), lock_timeout_ms=args.lock_timeout, progress=shown
        )
    print(f"reordered {len(done)} of {len(todo)} in {sum(d.seconds for d in done):.1f} s")
    return 0 if len(done) == len(todo) else 1


def cmd_retention(args: argparse.Namespace) -> int:
    from benchdash.startup import require_schema

    require_schema()
    from benchdash.retention import cli as retention_cli

    return retention_cli.run(dry_run=args.dry_run)


def parser() -> argparse.ArgumentParser:
    """The command-line interface."""
    p = argparse.ArgumentParser(prog="benchdash", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("serve", help="migrate, then serve the API and UI")
    s.add_argument("--host", help="default BENCHDASH_HOST or 127.0.0.1")
    s.add_argument("--port", type=int, help="default BENCHDASH_PORT or 8000")
    s.add_argument(
        "--workers", type=int, help="API processes (default BENCHDASH_WORKERS, else one per core)"
    )
    s.add_argument("--no-migrate", action="store_true")
    s.set_defaults(func=cmd_serve)
    m = sub.add_parser("migrate", help="alembic upgrade head")
    m.set_defaults(func=cmd_migrate)
    for waiting in (s, m):
        waiting.add_argument(
            "--wait",
            type=float,
            default=30.0,
            metavar="S",
            help="wait up to S seconds for the database to answer first (default 30; 0: not)",
        )
    sub.add_parser("db-url", help="print the database URL").set_defaults(func=cmd_db_url)
    sub.add_parser("db-stop", help="stop the embedded PostgreSQL under .data/").set_defaults(
        func=cmd_db_stop
    )
    sc = sub.add_parser("scratch-db", help="(re)create an empty database on the same server")
    sc.add_argument("name", help="database name, e.g. benchdash_e2e")
    sc.add_argument("--drop", action="store_true", help="only drop it (a harness cleaning up)")
    sc.set_defaults(func=cmd_scratch_db)
    t = sub.add_parser("token", help="API tokens").add_subparsers(dest="action", required=True)
    tc = t.add_parser("create", help="create a token and print it once")
    tc.add_argument("--system", action="append", default=[], help="repeatable; none = all")
    tc.add_argument("--scope", action="append", required=True, choices=list(SCOPES))
    tc.add_argument("--name")
    tc.set_defaults(func=cmd_token)
    t.add_parser(
        "generate",
        help="print a new random token (not stored), e.g. for BENCHDASH_AGENT_TOKEN_<SYSTEM>",
    ).set_defaults(func=cmd_token_generate)
    u = sub.add_parser("user", help="users").add_subparsers(dest="action", required=True)
    uc = u.add_parser("create", help="create a user")
    uc.add_argument("--username", required=True)
    uc.add_argument("--password", required=True)
    uc.add_argument("--admin", action="store_true")
    uc.set_defaults(func=cmd_user)
    d = sub.add_parser("demo", help="load a realistic demo history")
    d.add_argument("--runs", type=int, default=60)
    d.add_argument("--seed", type=int, default=7)
    d.set_defaults(func=cmd_demo)
    sub.add_parser("openapi", help="print the OpenAPI document").set_defaults(func=cmd_openapi)
    sub.add_parser("schema", help="print the result document's JSON Schema").set_defaults(
        func=cmd_schema
    )
    r = sub.add_parser(
        "reorder", help="rewrite every closed month of measurements in series order (CLUSTER)"
    )
    r.add_argument(
        "--lock-timeout", type=int, default=0, metavar="MS",
        help="wait at most MS for a month's lock (default 0: as long as it takes)",
    )  # fmt: skip
    r.set_defaults(func=cmd_reorder)
    rt = sub.add_parser("retention", help="apply the retention rules now (batches, audited)")
    rt.add_argument("--dry-run", action="store_true", help="only report what would go")
    rt.set_defaults(func=cmd_retention)
    from benchdash.regression import replay_cli

    replay_cli.add_parser(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point."""
    args = parser().parse_args(list(argv) if argv is not None else sys.argv[1:])
    try:
        return int(args.func(args))
    except Exception as exc:
        from benchdash.kit.errors import AppError

        if isinstance(exc, AppError):
            print(f"error: {exc.detail}", file=sys.stderr)
            return 1
        raise


if __name__ == "__main__":
    raise SystemExit(main())
