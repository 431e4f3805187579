"""Before serving: the schema brought to head (or checked), the first admin and agent token."""

from __future__ import annotations

from alembic.config import Config

from benchdash.config import REPO_ROOT, get_settings


def alembic_config() -> Config:
    """Alembic's configuration for this repository's migrations."""
    cfg = Config(str(REPO_ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(REPO_ROOT / "migrations"))
    return cfg


def migrate() -> None:
    """Bring the schema to the newest migration."""
    from alembic import command

    command.upgrade(alembic_config(), "head")


def bootstrap() -> None:
    """The admin user and the agents' token from the environment (first start)."""
    settings = get_settings()
    from benchdash.auth import service as auth_service
    from benchdash.db import transaction

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
                scopes=["agent", "upload", "trigger"],
            )


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
