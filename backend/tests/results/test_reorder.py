"""Closed months rewritten in series order: only months a day past their end, once each, the
same answers after, and a month another transaction holds is left for the next call."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from benchdash.kit.errors import NotFound
from benchdash.results import partitions, reorder
from tests.fixtures.factories import T0, auth, document, metric, token

JANUARY = "measurement_y2026m01"  # T0's month
_ORDER = text(f"SELECT series_id, started_at FROM {JANUARY} ORDER BY ctid")


def test_a_closed_month_is_rewritten_in_series_order_once(
    client: TestClient, session: Session
) -> None:
    assert partitions.ensure(session=session, now=T0, first=T0, ahead=0) == [JANUARY]
    headers = auth(token(session, "uvhttp"))
    for i in range(6):  # each run's three series side by side, as uploads leave them
        doc = document(
            metric(value=100.0 + i),
            metric("latency_ms", "ms", "lower_is_better", value=5.0 + i),
            metric("errors", "count", "lower_is_better", value=float(i % 2)),
            at=i,
        )
        assert client.post("/api/v1/results", json=doc, headers=headers).status_code == 201
    before = session.execute(_ORDER).all()
    assert before != sorted(before)
    key = {"system": "uvhttp", "benchmark": "medium_concurrency", "metric": "latency_ms"}
    read = client.get("/api/v1/series", params=key).json()
    assert reorder.pending(session=session, now=datetime(2026, 2, 1, 23, tzinfo=UTC)) == []
    done = reorder.reorder(session=session, now=datetime(2026, 2, 3, tzinfo=UTC))
    assert [(d.partition, d.rows) for d in done] == [(JANUARY, 18)]
    assert session.execute(_ORDER).all() == sorted(before)
    assert client.get("/api/v1/series", params=key).json() == read
    assert reorder.reorder(session=session, now=datetime(2026, 2, 3, tzinfo=UTC)) == []


def test_a_month_a_reader_holds_is_left_for_the_next_call(engine: Engine, session: Session) -> None:
    later = datetime(2040, 1, 1, tzinfo=UTC)  # every month partition made so far is closed
    months = [p[0] for p in reorder.pending(session=session, now=later)]
    assert months, "the migration makes this month and the next ones"
    held = months[0]
    with engine.connect() as other:
        reading = other.begin()
        other.execute(text(f"LOCK TABLE {held} IN ACCESS SHARE MODE"))  # a long read
        done = reorder.reorder(session=session, now=later, lock_timeout_ms=100)
        reading.rollback()
    assert [d.partition for d in done] == months[1:]
    assert [p[0] for p in reorder.pending(session=session, now=later)] == [held]


def test_reorder_on_a_database_without_the_schema_says_what_to_do(session: Session) -> None:
    session.execute(text("SET LOCAL search_path = pg_catalog"))  # no measurement table seen
    with pytest.raises(NotFound, match="benchdash-server migrate"):
        reorder.pending(session=session, now=datetime(2040, 1, 1, tzinfo=UTC))
