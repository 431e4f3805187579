"""Alembic environment: the URL comes from benchdash's settings (or the caller's connection)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from benchdash.db import database_url
from benchdash.models import Base

target_metadata = Base.metadata


def run_migrations_offline() -> None:
    """Emit SQL without a database."""
    context.configure(url=database_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Migrate through a given connection (tests) or a fresh engine."""
    connection = context.config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(database_url())
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
