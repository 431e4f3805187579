"""A claim that waits for work (`wait_s`): look, then sleep until a run of the system is queued
(`wakeups`), look again, answer. Between looks the request holds no database connection and no
transaction; every look is a short transaction of its own that also records the agent's
heartbeat, and one comes at least every `refresh_s` and at the end of the wait, so a waiting
agent stays online and a missed notification costs at most `refresh_s`."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from benchdash.db import SessionMaker, end_session
from benchdash.runs import wakeups
from benchdash.runs.claim import Claim


def _look(sessions: SessionMaker, attempt: Callable[[Session], Claim]) -> Claim:
    with sessions() as session:
        return attempt(session)


async def claim(
    *,
    attempt: Callable[[Session], Claim],
    first: Session,
    sessions: SessionMaker,
    system: str,
    wait_s: float,
    dsn: str,
    refresh_s: float,
    gone: Callable[[], Awaitable[bool]],
) -> Claim:
    """`attempt` in the request's session `first` (ended before any wait); while it finds
    nothing to do and `wait_s` lasts, again on each wake-up. A busy host answers at once."""
    listener = wakeups.listener(dsn) if wait_s > 0 else None
    event = listener.wait_for(system) if listener is not None else None
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait_s
    try:
        if listener is not None:
            await listener.ready()  # listening before the first look: no queued run slips by
        got = await run_in_threadpool(attempt, first)
        await run_in_threadpool(end_session, first, commit=True)
        while event is not None and got.run_id is None and got.reason is None:
            left = deadline - loop.time()
            if left <= 0:
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(left, refresh_s))
            event.clear()
            if await gone():  # the agent hung up: nothing to hand it
                break
            got = await run_in_threadpool(_look, sessions, attempt)
        return got
    finally:
        if listener is not None and event is not None:
            listener.forget(system, event)
