"""Before serving: the schema brought to head (or checked), the first admin and agent token."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from alembic.config import Config

from benchdash.config import REPO_ROOT, get_settings

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

# What a runner agent does: register its manifest, report its runs (and queue its scheduled
# ones), upload their results. Not `trigger`, not `admin`.
AGENT_SCOPES = ("agent", "upload")


def alembic_config() -> Config:
    """Alembic's configuration for this repository's migrations."""
    cfg = Config(str(REPO_ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(REPO_ROOT / "migrations"))
    return cfg


def wait_for_database(timeout_s: float) -> None:
    """Return once the database accepts a connection; give up after `timeout_s` seconds.

    A database restarting beside us (Compose restarts every service at once, and a one-shot
    migration may start before PostgreSQL answers) is waited for, not failed on.
    """
    from sqlalchemy import text
    from sqlalchemy.exc import OperationalError

    from benchdash.db import get_engine

    deadline = time.monotonic() + timeout_s
    told = False
    while True:
        try:
            with get_engine().connect() as conn:
                conn.execute(text("SELECT 1"))
            return
        except OperationalError as e:
            if time.monotonic() >= deadline:
                raise SystemExit(
                    f"benchdash-server: the database did not answer within {timeout_s:.0f} s: "
                    f"{str(e.orig or e).strip().splitlines()[0]}"
                ) from None
            if not told:
                print("waiting for the database to accept connections …", flush=True)
                told = True
            time.sleep(1)


def migrate(wait_s: float = 0) -> None:
    """Bring the schema to the newest migration (after waiting up to `wait_s` s for the
    database)."""
    from alembic import command

    if wait_s > 0:
        wait_for_database(wait_s)
    command.upgrade(alembic_config(), "head")


def bootstrap() -> None:
    """The months ahead of `measurement`'s partitions; the admin user and the agents' token from
    the environment (first start)."""
    settings = get_settings()
    from benchdash.auth import service as auth_service
    from benchdash.db import transaction, utcnow
    from benchdash.results import partitions

    with transaction() as session:
        partitions.ensure(session=session, now=utcnow())
    with transaction() as session:
        if settings.admin_password:
            auth_service.ensure_user(
                session=session,
                username=settings.admin_username,
                password=settings.admin_password,
                is_admin=True,
            )
        if settings.agent_token:
            auth_service.ensure_token(
                session=session,
                plain=settings.agent_token,
                name="runner agents (BENCHDASH_AGENT_TOKEN)",
                scopes=AGENT_SCOPES,
            )
        ensure_agent_tokens(session=session, spec=settings.agent_tokens or "")


def parse_agent_tokens(spec: str) -> dict[str, str]:
    """`system=token,system=token` (BENCHDASH_AGENT_TOKENS) as {system: token}."""
    pairs = [item.strip() for item in spec.replace("\n", ",").split(",") if item.strip()]
    out = {}
    for pair in pairs:
        system, sep, plain = pair.partition("=")
        if not sep or not system.strip() or not plain.strip():
            raise ValueError("BENCHDASH_AGENT_TOKENS takes system=token pairs separated by commas")
        out[system.strip()] = plain.strip()
    return out


def ensure_agent_tokens(*, session: Session, spec: str) -> None:
    """Make each agent's token valid, with the agent's scopes for its own system only."""
    from benchdash.auth import service as auth_service

    for system, plain in parse_agent_tokens(spec).items():
        token = auth_service.ensure_token(
            session=session, plain=plain, name=f"runner agent of {system}", scopes=AGENT_SCOPES
        )
        token.systems = [system]
    session.flush()


def require_schema() -> None:
    """Stop with a clear message when the database is not migrated to head."""
    from sqlalchemy import text
    from sqlalchemy.exc import SQLAlchemyError

    from benchdash.db import get_engine
    from benchdash.health import alembic_head
    from benchdash.kit.errors import AppError

    try:
        with get_engine().connect() as conn:
            current = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    except SQLAlchemyError:
        current = None
    if current != alembic_head():
        raise AppError("the database schema is not up to date: run `benchdash-server migrate`")
