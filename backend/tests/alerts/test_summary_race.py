"""Concurrent uploads meet on one alert summary: two testbeds' uploads of the same commits,
in two transactions at once, open their alerts in one summary (the second waits on the
summary's unique range until the first commits) and send one notification per subscription."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import delete, select, text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from benchdash.db import utcnow
from benchdash.ingest import service as ingest
from benchdash.notify.models import Subscription
from benchdash.results.schemas import DocumentIn
from benchdash.systems.models import System
from tests.alerts.test_summaries import wide

BENCHMARKS = 10


def _doc(slug: str, value: float, at: int, testbed: str) -> DocumentIn:
    doc: dict[str, Any] = wide(value, at, testbed=testbed)
    doc["system"] = slug
    doc["run"]["external_id"] = f"{slug}-{testbed}-{at}"
    doc["results"] = doc["results"][:BENCHMARKS]
    return DocumentIn.model_validate(doc)


@contextmanager
def _committed(engine: Engine) -> Iterator[tuple[sessionmaker[Session], str]]:
    maker = sessionmaker(bind=engine, expire_on_commit=False)
    slug = f"race-{uuid.uuid4().hex[:8]}"
    try:
        yield maker, slug
    finally:
        with maker.begin() as s:
            ids = s.scalars(select(System.id).where(System.slug == slug)).all()
            s.execute(
                text(
                    "DELETE FROM procrastinate_jobs WHERE id IN (SELECT d.job_id FROM "
                    "notify_delivery d JOIN notify_subscription n ON n.id = d.subscription_id "
                    "WHERE n.system_id = ANY(:ids))"
                ),
                {"ids": list(ids)},
            )
            s.execute(delete(System).where(System.id.in_(ids)))


def test_two_testbeds_uploading_at_once_share_one_summary(engine: Engine) -> None:
    with _committed(engine) as (maker, slug):
        for at in range(15):
            for tb in ("tb-1", "tb-2"):
                with maker.begin() as s:
                    ingest.store(session=s, document=_doc(slug, 100, at, tb))
        with maker.begin() as s:
            system_id = s.scalar(select(System.id).where(System.slug == slug))
            for channel in ("webhook", "email"):
                s.add(
                    Subscription(
                        system_id=system_id,
                        channel=channel,
                        name=channel,
                        target="http://127.0.0.1:9/h" if channel == "webhook" else "a@b.test",
                        events=["alert.opened", "alert.updated", "alert.resolved"],
                        created_by="test",
                        created_at=utcnow(),
                    )
                )

        first = maker()
        for at in range(15, 19):  # tb-1 slows at 15 and its alerts open: not committed yet
            ingest.store(session=first, document=_doc(slug, 85, at, "tb-1"))
        failures: list[BaseException] = []

        def second() -> None:
            try:
                with maker.begin() as s:
                    for at in range(15, 19):
                        ingest.store(session=s, document=_doc(slug, 85, at, "tb-2"))
            except BaseException as e:  # reported by the test's thread
                failures.append(e)

        other = threading.Thread(target=second)
        other.start()
        other.join(timeout=3)
        assert other.is_alive(), "the second upload waits on the summary's range"
        first.commit()
        first.close()
        other.join(timeout=120)
        assert not other.is_alive() and failures == []

        with maker() as s:
            summaries = (
                s.execute(
                    text("SELECT id FROM alert_summary WHERE system_id = :s"), {"s": system_id}
                )
                .scalars()
                .all()
            )
            assert len(summaries) == 1
            alerts = s.execute(
                text(
                    "SELECT count(*), count(DISTINCT testbed_id) FROM alert "
                    "WHERE system_id = :s AND summary_id = :id"
                ),
                {"s": system_id, "id": summaries[0]},
            ).one()
            assert tuple(alerts) == (2 * BENCHMARKS, 2)
            told = s.execute(
                text(
                    "SELECT d.event, d.payload FROM notify_delivery d JOIN notify_subscription n "
                    "ON n.id = d.subscription_id WHERE n.system_id = :s"
                ),
                {"s": system_id},
            ).all()
            assert [e for e, _ in told] == ["alert.opened", "alert.opened"]
            assert {p["summary"]["counts"]["alerts"] for _, p in told} == {2 * BENCHMARKS}
