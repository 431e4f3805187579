"""Committed data and a real delivery worker (procrastinate, in a thread) for the delivery
tests: a system of the test's own, removed afterwards with its subscriptions and jobs."""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select, text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from benchdash.config import Settings
from benchdash.db import SessionMaker, utcnow
from benchdash.notify import outbox, worker
from benchdash.notify import secrets as secret_box
from benchdash.notify.models import Delivery, Subscription
from benchdash.systems.models import Branch, System


@dataclass
class Live:
    """The committed world of one test."""

    sessions: SessionMaker
    url: str
    system_id: int
    branch_id: int

    def subscribe(self, channel: str, target: str, secret: str | None = None) -> int:
        """A subscription to every event of the test's system."""
        with self.sessions() as s:
            sub = Subscription(
                system_id=self.system_id,
                channel=channel,
                name=channel,
                target=target,
                secret=secret_box.encrypt(secret) if secret else None,
                events=["alert.opened", "alert.resolved", "run.failed"],
                created_by="test",
                created_at=utcnow(),
            )
            s.add(sub)
            s.flush()
            return sub.id

    def fail_run(self, run_id: int) -> int:
        """What `runs.lifecycle` writes when a run fails: the outbox rows (committed); how
        many deliveries were queued."""
        run: dict[str, Any] = {"id": run_id, "status": "failed", "ref": "main", "commit": None}
        with self.sessions() as s:
            return outbox.run_failed(
                session=s,
                system_id=self.system_id,
                branch_id=self.branch_id,
                run={**run, "message": "the runner agent stopped sending heartbeats"},
            )

    def deliveries(self) -> list[Delivery]:
        """Every delivery of the test's system, oldest first."""
        with self.sessions() as s:
            return list(
                s.scalars(
                    select(Delivery)
                    .join(Subscription)
                    .where(Subscription.system_id == self.system_id)
                    .order_by(Delivery.created_at)
                )
            )


@contextmanager
def live(engine: Engine) -> Iterator[Live]:
    """A committed system with a branch; everything it made is deleted afterwards."""
    maker = sessionmaker(bind=engine, expire_on_commit=False)

    @contextmanager
    def sessions() -> Iterator[Session]:
        s = maker()
        try:
            yield s
            s.commit()
        except BaseException:
            s.rollback()
            raise
        finally:
            s.close()

    slug = f"nt-{uuid.uuid4().hex[:10]}"
    with sessions() as s:
        system = System(slug=slug, name=slug, created_at=utcnow())
        s.add(system)
        s.flush()
        branch = Branch(system_id=system.id, name="main", created_at=utcnow())
        s.add(branch)
        s.flush()
        ids = system.id, branch.id
    url = engine.url.render_as_string(hide_password=False)
    try:
        yield Live(sessions=sessions, url=url, system_id=ids[0], branch_id=ids[1])
    finally:
        with sessions() as s:
            s.execute(
                text("DELETE FROM procrastinate_jobs WHERE queue_name = :q"), {"q": outbox.QUEUE}
            )
            s.execute(delete(System).where(System.id == ids[0]))


@contextmanager
def delivering(world: Live, settings: Settings) -> Iterator[None]:
    """The delivery worker, as an API process runs it, until the block ends."""
    loop = asyncio.new_event_loop()
    started = threading.Event()
    holder: dict[str, asyncio.Task[None]] = {}

    def main() -> None:
        asyncio.set_event_loop(loop)
        holder["task"] = loop.create_task(
            worker.run(url=world.url, sessions=world.sessions, settings=settings)
        )
        started.set()
        try:
            loop.run_until_complete(holder["task"])
        except asyncio.CancelledError:
            pass
        finally:
            loop.close()

    thread = threading.Thread(target=main, daemon=True)
    thread.start()
    started.wait(10)
    try:
        yield
    finally:
        loop.call_soon_threadsafe(holder["task"].cancel)
        thread.join(30)
        assert not thread.is_alive(), "the worker did not stop"
