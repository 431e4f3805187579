"""Long-polling agents wake up the moment a run of their system is queued.

`announce` sends a NOTIFY inside the queuing transaction, so PostgreSQL delivers it on commit
(and never for a rolled-back run). Each API process keeps one dedicated LISTEN connection (its
`Listener`, started by the first waiting claim) and fans each notification out to the requests
waiting for that system through asyncio events: a waiting request holds no pooled connection
and no transaction. After the connection is (re)made every waiter is woken to look again, so a
notification missed while it was down costs one extra look, never a lost run.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import psycopg
from sqlalchemy import text
from sqlalchemy.engine import URL
from sqlalchemy.orm import Session

from benchdash.db import APP_NAME

CHANNEL = "benchdash_work"
READY_WAIT_S = 5.0  # how long a claim waits for the LISTEN connection before looking anyway
_NOTIFY = text("SELECT pg_notify(:channel, :system)")
log = logging.getLogger("benchdash")


def announce(*, session: Session, system: str) -> None:
    """Tell waiting agents of `system` that it has work (delivered when `session` commits)."""
    session.execute(_NOTIFY, {"channel": CHANNEL, "system": system})


def conninfo(url: URL) -> str:
    """A libpq connection string from the engine's SQLAlchemy URL."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


class Listener:
    """One LISTEN connection of this process and the claims waiting on it, by system."""

    def __init__(self, dsn: str) -> None:
        self._dsn = dsn
        self._waiters: dict[str, set[asyncio.Event]] = {}
        self._ready = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def wait_for(self, system: str) -> asyncio.Event:
        """An event set when `system` may have work; `forget` it when done."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._listen(), name="benchdash listener")
        event = asyncio.Event()
        self._waiters.setdefault(system, set()).add(event)
        return event

    def forget(self, system: str, event: asyncio.Event) -> None:
        """Stop waking `event`."""
        waiting = self._waiters.get(system, set())
        waiting.discard(event)
        if not waiting:
            self._waiters.pop(system, None)

    async def ready(self) -> bool:
        """Whether the LISTEN connection is up (waiting up to READY_WAIT_S for it)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._ready.wait(), READY_WAIT_S)
        return self._ready.is_set()

    def _wake(self, system: str | None) -> None:
        for name, events in self._waiters.items():
            if system is None or name == system:
                for event in events:
                    event.set()

    async def _listen(self) -> None:
        delay = 0.5
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self._dsn, autocommit=True, application_name=f"{APP_NAME} listener"
                ) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self._ready.set()
                    self._wake(None)  # anything queued while we were not listening
                    delay = 0.5
                    async for note in conn.notifies():
                        self._wake(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("listening for queued runs failed: %s; again in %.1f s", exc, delay)
            self._ready.clear()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 10.0)

    async def stop(self) -> None:
        """Close the LISTEN connection (at shutdown)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self._ready.clear()


_listeners: dict[asyncio.AbstractEventLoop, Listener] = {}


def listener(dsn: str) -> Listener:
    """This event loop's listener (one per API process; a test client has a loop of its own)."""
    loop = asyncio.get_running_loop()
    if loop not in _listeners:
        for old in [k for k in _listeners if k.is_closed()]:
            del _listeners[old]
        _listeners[loop] = Listener(dsn)
    return _listeners[loop]


async def stop() -> None:
    """Stop this event loop's listener, if it has one."""
    found = _listeners.pop(asyncio.get_running_loop(), None)
    if found is not None:
        await found.stop()
