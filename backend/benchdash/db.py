"""Engine, session factory and the declarative base with a naming convention."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime
from functools import lru_cache

from sqlalchemy import MetaData, create_engine, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker

from benchdash.config import get_settings
from benchdash.kit.embedded import ensure_server, normalize_url

log = logging.getLogger("benchdash")
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


APP_NAME = "benchdash"  # application_name of this process's connections
_NAME = text("SELECT set_config('application_name', :name, true)")
_TRY_LOCK = text("SELECT pg_try_advisory_xact_lock(hashtextextended(:key, 0))")


def database_url() -> str:
    """The configured database URL, starting the embedded server when none is set."""
    settings = get_settings()
    if settings.database_url:
        return normalize_url(settings.database_url)
    return ensure_server(settings.data_dir)


def _engine(url: str) -> Engine:
    s = get_settings()
    options = (
        f"-c statement_timeout={s.db_statement_timeout_ms} -c lock_timeout={s.db_lock_timeout_ms}"
        " -c idle_in_transaction_session_timeout=60000"
        # Requests are short: starting parallel workers (and JIT-compiling) for one cost more
        # than the statement, and showed as a read's slowest tail (bench/reads.py).
        " -c max_parallel_workers_per_gather=0 -c jit=off -c TimeZone=UTC"
    )
    return create_engine(
        url,
        pool_size=s.db_pool_size,
        max_overflow=0,
        pool_timeout=s.db_pool_timeout_s,
        pool_pre_ping=True,
        # Named in pg_stat_activity; work outside a request renames its transaction (`background`).
        connect_args={"options": options, "connect_timeout": 5, "application_name": APP_NAME},
    )


@lru_cache
def get_engine() -> Engine:
    """The process-wide engine: a bounded pool, and timeouts so no request waits forever.

    A request that finds every connection busy for `db_pool_timeout_s` answers 503 with
    Retry-After (see kit.problem); statements and lock waits are bounded per connection.
    """
    return _engine(database_url())


@lru_cache
def get_read_engine() -> Engine | None:
    """The engine of the read replica (BENCHDASH_DATABASE_READ_URL), or None without one."""
    url = get_settings().database_read_url
    return _engine(normalize_url(url)) if url else None


@lru_cache
def _session_factory() -> sessionmaker[Session]:
    return sessionmaker(bind=get_engine(), expire_on_commit=False)


def new_session() -> Session:
    """A session of the process-wide engine; it connects when first used."""
    return _session_factory()()


def end_session(session: Session, *, commit: bool) -> None:
    """Commit (or roll back) and close: the connection goes back to the pool either way."""
    try:
        if commit:
            session.commit()
        else:
            session.rollback()
    finally:
        session.close()


def session_scope() -> Iterator[Session]:
    """One session per unit of work: commit on success, roll back on error."""
    session = new_session()
    try:
        yield session
    except BaseException:
        end_session(session, commit=False)
        raise
    end_session(session, commit=True)


@lru_cache
def _read_factory() -> sessionmaker[Session] | None:
    engine = get_read_engine()
    return None if engine is None else sessionmaker(bind=engine, expire_on_commit=False)


def replica_session() -> Session | None:
    """A session on the read replica, connected, or None: no replica configured, or it does
    not answer (the caller reads from the primary then)."""
    factory = _read_factory()
    if factory is None:
        return None
    session = factory()
    try:
        session.connection()
    except OperationalError as exc:
        session.close()
        log.warning("read replica unavailable, reading from the primary: %s", exc.orig or exc)
        return None
    return session


@contextmanager
def transaction() -> Iterator[Session]:
    """`with transaction() as session:` for work outside a request (CLI, reaper, streams)."""
    yield from session_scope()


@contextmanager
def background(job: str) -> Iterator[Session]:
    """A transaction of a background job, named `benchdash background: <job>` in
    pg_stat_activity for its length (requests show as plain `benchdash`)."""
    with transaction() as session:
        session.execute(_NAME, {"name": f"{APP_NAME} background: {job}"})
        yield session


def first_to_take(session: Session, job: str) -> bool:
    """Whether this transaction holds `job`'s lock, taken without waiting: one API process at
    a time does a job every process runs (the others skip the tick instead of queueing)."""
    return bool(session.execute(_TRY_LOCK, {"key": f"benchdash job: {job}"}).scalar_one())


SessionMaker = Callable[[], AbstractContextManager[Session]]


def session_maker() -> SessionMaker:
    """For work that outlives the request (event streams): a factory of transactions."""
    return transaction
