"""Test database: one migrated database per session; each test in a rolled-back transaction."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from alembic import command
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Session

from benchdash import deps
from benchdash.app import create_app
from benchdash.auth import usage
from benchdash.db import database_url, session_maker
from benchdash.kit.embedded import normalize_url
from benchdash.startup import alembic_config

TEST_DB = f"benchdash_test_{os.getpid()}"
os.environ["BENCHDASH_REAPER_INTERVAL_S"] = "0"  # tests call the reaper themselves
os.environ["BENCHDASH_NOTIFY_WORKER"] = "0"  # tests run the delivery worker themselves
os.environ["BENCHDASH_NOTIFY_ALLOW_PRIVATE"] = "1"  # local receivers (the SSRF tests turn it off)
os.environ["BENCHDASH_SMTP_HOST"] = "127.0.0.1"  # e-mail subscriptions are accepted (local SMTP)


def _server_url() -> str:
    url = os.environ.get("BENCHDASH_TEST_DATABASE_URL") or database_url()
    return normalize_url(url)


def _with_db(url: str, name: str) -> str:
    base, _, query = url.partition("?")
    head = base.rsplit("/", 1)[0]
    return f"{head}/{name}" + (f"?{query}" if query else "")


@pytest.fixture(scope="session")
def engine() -> Iterator[Engine]:
    """A fresh database for this test session, built by `alembic upgrade head`."""
    server = _server_url()
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{TEST_DB}"'))
        conn.execute(text(f'CREATE DATABASE "{TEST_DB}"'))
    eng = create_engine(_with_db(server, TEST_DB))
    cfg = alembic_config()
    with eng.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
    yield eng
    eng.dispose()
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{TEST_DB}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture
def connection(engine: Engine) -> Iterator[Connection]:
    """A connection inside an outer transaction that is rolled back after the test."""
    with engine.connect() as conn:
        outer = conn.begin()
        yield conn
        outer.rollback()


@pytest.fixture
def session(connection: Connection) -> Iterator[Session]:
    """A session joined to the test transaction (its commits become savepoints)."""
    s = Session(bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False)
    yield s
    s.close()


def app_on(connection: Connection) -> FastAPI:
    """The real app; each request gets its own session in a savepoint of the test transaction,
    committed (released) on success and rolled back on error, like production."""

    def request_session() -> Iterator[Session]:
        s = Session(
            bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False
        )
        try:
            yield s
            s.commit()
        except BaseException:
            s.rollback()
            raise
        finally:
            s.close()

    app = create_app()
    app.dependency_overrides[deps.request_session] = request_session
    app.dependency_overrides[session_maker] = lambda: contextmanager(request_session)
    return app


@pytest.fixture
def client(connection: Connection) -> Iterator[TestClient]:
    """A client of `app_on(connection)`."""
    with TestClient(app_on(connection)) as c:
        yield c
        usage.forget()  # the tokens used here lived in the rolled-back test transaction
