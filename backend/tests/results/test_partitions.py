"""`measurement`'s monthly partitions: created ahead, rows routed to their month, the default
partition catching the rest, a month whose rows sit in the default left alone; ingest and a
series read across partitions."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from benchdash.results import history, partitions
from benchdash.results.partitions import Month
from tests.fixtures.factories import auth, document, metric, token

_PARTS = text(
    "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
    "WHERE i.inhparent = CAST('measurement' AS regclass) ORDER BY c.relname"
)
_WHERE = text(
    "SELECT m.started_at, CAST(m.tableoid AS regclass)::text FROM measurement m "
    "ORDER BY m.started_at"
)


def _parts(session: Session) -> set[str]:
    return set(session.scalars(_PARTS).all())


def test_month_arithmetic_crosses_years() -> None:
    assert Month(2026, 11).plus(3) == Month(2027, 2)
    assert Month(2027, 1).plus(-1) == Month(2026, 12)
    assert Month(2031, 12).plus(1).start == datetime(2032, 1, 1, tzinfo=UTC)
    assert Month(2031, 5).name == "measurement_y2031m05"


def test_migration_left_this_month_ahead_and_a_default(session: Session) -> None:
    now = Month.of(datetime.now(UTC))
    names = _parts(session)
    assert {now.plus(i).name for i in range(partitions.AHEAD_MONTHS + 1)} <= names
    assert "measurement_default" in names


def test_ensure_creates_the_missing_months_once(session: Session) -> None:
    now = datetime(2031, 11, 20, tzinfo=UTC)
    created = partitions.ensure(session=session, now=now, ahead=2)
    assert created == ["measurement_y2031m11", "measurement_y2031m12", "measurement_y2032m01"]
    assert set(created) <= _parts(session)
    assert partitions.ensure(session=session, now=now, ahead=2) == []


def test_ensure_from_first_fills_the_months_between(session: Session) -> None:
    created = partitions.ensure(
        session=session, now=datetime(2032, 3, 1, tzinfo=UTC), ahead=0,
        first=datetime(2031, 12, 31, 23, 59, tzinfo=UTC),
    )  # fmt: skip
    assert created == ["measurement_y2031m12", "measurement_y2032m01", "measurement_y2032m02",
                       "measurement_y2032m03"]  # fmt: skip


def test_uploads_land_in_their_month_or_the_default(client: TestClient, session: Session) -> None:
    partitions.ensure(session=session, now=datetime(2031, 3, 5, tzinfo=UTC), ahead=0)
    headers = auth(token(session, "uvhttp"))
    march = 2031 * 0  # minutes after T0 in tests.fixtures.factories: 2026-01-10
    docs = [document(metric(samples=[100.0] * 5), at=march)]
    late = document(metric(samples=[101.0] * 5), at=1)
    late["run"]["started_at"] = "2031-03-07T10:00:00Z"
    for doc in [*docs, late]:
        r = client.post("/api/v1/results", json=doc, headers=headers)
        assert r.status_code == 201, r.text
    placed = dict(session.execute(_WHERE).all())
    assert placed[datetime(2031, 3, 7, 10, tzinfo=UTC)] == "measurement_y2031m03"
    assert "measurement_default" in placed.values()  # 2026-01 has no month partition
    series = client.get(
        "/api/v1/series",
        params={"system": "uvhttp", "benchmark": "medium_concurrency",
                "metric": "requests_per_second"},
    )  # fmt: skip
    assert series.status_code == 200, series.text
    assert [p["value"] for p in series.json()["points"]] == [100.0, 101.0]
    verdicts = session.execute(
        text("SELECT v.started_at = m.started_at FROM verdict v JOIN measurement m "
             "ON m.id = v.measurement_id")
    ).scalars().all()  # fmt: skip
    assert verdicts == [True, True]


def test_a_month_with_rows_in_the_default_is_left_there(
    client: TestClient, session: Session
) -> None:
    headers = auth(token(session, "uvhttp"))
    doc = document(metric(samples=[100.0] * 5))
    doc["run"]["started_at"] = "2033-06-15T00:00:00Z"
    assert client.post("/api/v1/results", json=doc, headers=headers).status_code == 201
    created = partitions.ensure(session=session, now=datetime(2033, 5, 1, tzinfo=UTC), ahead=2)
    assert created == ["measurement_y2033m05", "measurement_y2033m07"]
    assert dict(session.execute(_WHERE).all()) == {
        datetime(2033, 6, 15, tzinfo=UTC): "measurement_default"
    }


def test_ensure_gives_up_behind_an_upload_in_flight(engine: Engine, session: Session) -> None:
    now = datetime(2034, 1, 1, tzinfo=UTC)
    before = session.scalar(text("SELECT current_setting('lock_timeout')"))
    with engine.connect() as other:
        upload = other.begin()  # holds series as an ingest transaction does
        other.execute(text("LOCK TABLE series IN ROW EXCLUSIVE MODE"))
        t0 = time.monotonic()
        assert partitions.ensure(session=session, now=now, ahead=0, lock_timeout_ms=200) == []
        assert time.monotonic() - t0 < 3
        upload.rollback()
    assert session.scalar(text("SELECT current_setting('lock_timeout')")) == before
    assert partitions.ensure(session=session, now=now, ahead=0) == ["measurement_y2034m01"]


def test_history_reaches_past_the_recent_months_when_they_hold_too_few(
    client: TestClient, session: Session
) -> None:
    headers = auth(token(session, "uvhttp"))
    for k in range(8):  # one upload a month: 120 days hold 4 of them
        doc = document(metric(samples=[100.0 + k] * 5), at=k * 30 * 24 * 60)
        assert client.post("/api/v1/results", json=doc, headers=headers).status_code == 201
    b, m, branch, testbed, last = session.execute(
        text("SELECT s.benchmark_id, s.metric_id, s.branch_id, s.testbed_id, max(r.started_at) "
             "FROM series s JOIN measurement x ON x.series_id = s.id JOIN run r ON r.id = x.run_id "
             "GROUP BY s.id")
    ).one()  # fmt: skip
    for limit in (3, 6, 20):
        points = history.recent_points(
            session=session, branch_id=branch, testbed_id=testbed, keys=[(b, m)],
            before=(last + timedelta(days=1), 0), limit=limit,
        )[(b, m)]  # fmt: skip
        assert [p.value for p in points] == [100.0 + k for k in range(8)][-limit:]
