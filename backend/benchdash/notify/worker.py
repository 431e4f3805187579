"""The delivery worker: a procrastinate worker on queue `notify`, run by every API process
(its lifespan, `app.py`) unless BENCHDASH_NOTIFY_WORKER=0.

A failed try is retried with exponential backoff (`Backoff`). A job whose process died while
delivering stays `doing` in procrastinate: its worker's heartbeat goes stale, and the next
worker to look (any API process, at start and every few seconds) puts it back in the queue,
so the delivery is tried again with the same delivery id: nothing lost, and receivers that
dedup by that id see it once.
"""

from __future__ import annotations

import asyncio
import logging
import uuid

from procrastinate import App, BaseRetryStrategy, PsycopgConnector, RetryDecision
from procrastinate.jobs import Job

from benchdash.config import Settings
from benchdash.db import APP_NAME, SessionMaker
from benchdash.notify import delivery
from benchdash.notify.outbox import DELIVER_TASK, QUEUE

log = logging.getLogger("benchdash.notify")


class Backoff(BaseRetryStrategy):
    """Wait `base`, 2 × `base`, 4 × `base` … (at most `cap`) before the next try."""

    def __init__(self, settings: Settings) -> None:
        self.base, self.cap = settings.notify_backoff_s, settings.notify_backoff_max_s
        self.limit = settings.notify_max_attempts * 2  # the delivery row stops it sooner

    def get_retry_decision(self, *, exception: BaseException, job: Job) -> RetryDecision | None:
        if job.attempts + 1 >= self.limit:
            return None
        wait = min(self.cap, self.base * 2**job.attempts)
        return RetryDecision(retry_in={"seconds": wait})


def conninfo(url: str) -> str:
    """A libpq URL from an SQLAlchemy one."""
    for prefix in ("postgresql+psycopg://", "postgresql+psycopg2://"):
        if url.startswith(prefix):
            return "postgresql://" + url[len(prefix) :]
    return url


def build_app(*, url: str, sessions: SessionMaker, settings: Settings) -> App:
    """A procrastinate app with the delivery task."""
    # A small pool per API process (one connection LISTENs, the others fetch and finish jobs);
    # the delivery itself reads and writes through the process's SQLAlchemy pool.
    named = {"application_name": f"{APP_NAME} notify worker"}  # as seen in pg_stat_activity
    app = App(
        connector=PsycopgConnector(conninfo=conninfo(url), min_size=1, max_size=3, kwargs=named)
    )

    @app.task(name=DELIVER_TASK, queue=QUEUE, retry=Backoff(settings))
    def deliver(delivery_id: str) -> None:
        status = delivery.attempt(
            sessions=sessions, delivery_id=uuid.UUID(delivery_id), settings=settings
        )
        log.info("delivery %s: %s", delivery_id, status)

    return app


async def requeue_stalled(app: App, settings: Settings) -> int:
    """Put back in the queue the deliveries whose worker stopped sending heartbeats."""
    stalled = await app.job_manager.get_stalled_jobs(
        queue=QUEUE, seconds_since_heartbeat=settings.notify_stalled_s
    )
    count = 0
    for job in stalled:
        await app.job_manager.retry_job(job)
        count += 1
    if count:
        log.warning("re-queued %d notification deliveries of a stopped process", count)
    return count


async def _watch_stalled(app: App, settings: Settings) -> None:
    while True:
        try:
            await requeue_stalled(app, settings)
        except Exception:
            log.exception("looking for stalled deliveries failed")
        await asyncio.sleep(max(0.5, settings.notify_stalled_s / 3))


async def run(*, url: str, sessions: SessionMaker, settings: Settings) -> None:
    """Deliver until cancelled; a lost database connection restarts the worker."""
    while True:
        app = build_app(url=url, sessions=sessions, settings=settings)
        try:
            async with app.open_async():
                watcher = asyncio.create_task(_watch_stalled(app, settings))
                try:
                    await app.run_worker_async(
                        queues=[QUEUE],
                        name="benchdash-notify",
                        install_signal_handlers=False,
                        fetch_job_polling_interval=min(2.0, settings.notify_backoff_s),
                        update_heartbeat_interval=max(0.2, settings.notify_stalled_s / 4),
                        stalled_worker_timeout=settings.notify_stalled_s,
                    )
                finally:
                    watcher.cancel()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the notification worker stopped; starting again in 5 s")
        await asyncio.sleep(5)
