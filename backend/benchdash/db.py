"""Engine, session factory and the declarative base with a naming convention."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime
from functools import lru_cache

from sqlalchemy import MetaData, create_engine
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker

from benchdash.config import get_settings
from benchdash.kit.embedded import ensure_server, normalize_url

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base of every table."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


def utcnow() -> datetime:
    """The current time, timezone-aware (UTC)."""
    return datetime.now(UTC)


def database_url() -> str:
    """The configured database URL, starting the embedded server when none is set."""
    settings = get_settings()
    if settings.database_url:
        return normalize_url(settings.database_url)
    return ensure_server(settings.data_dir)


@lru_cache
def get_engine() -> Engine:
    """The process-wide engine: a bounded pool, and timeouts so no request waits forever.

    A request that finds every connection busy for `db_pool_timeout_s` answers 503 with
    Retry-After (see kit.problem); statements and lock waits are bounded per connection.
    """
    s = get_settings()
    options = (
        f"-c statement_timeout={s.db_statement_timeout_ms} -c lock_timeout={s.db_lock_timeout_ms}"
        " -c idle_in_transaction_session_timeout=60000"
    )
    return create_engine(
        database_url(),
        pool_size=s.db_pool_size,
        max_overflow=0,
        pool_timeout=s.db_pool_timeout_s,
        pool_pre_ping=True,
        connect_args={"options": options},
    )


@lru_cache
def _session_factory() -> sessionmaker[Session]:
    return sessionmaker(bind=get_engine(), expire_on_commit=False)


def session_scope() -> Iterator[Session]:
    """One session per request: commit on success, roll back on error."""
    session = _session_factory()()
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()


@contextmanager
def transaction() -> Iterator[Session]:
    """`with transaction() as session:` for work outside a request (CLI, reaper, streams)."""
    yield from session_scope()


SessionMaker = Callable[[], AbstractContextManager[Session]]


def session_maker() -> SessionMaker:
    """For work that outlives the request (event streams): a factory of transactions."""
    return transaction
