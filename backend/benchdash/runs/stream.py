"""Server-sent events of a run, read from the run_event table (any API replica can serve them)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy import select
from starlette.concurrency import run_in_threadpool

from benchdash.db import SessionMaker
from benchdash.runs.models import Run, RunEvent
from benchdash.runs.states import TERMINAL

POLL_S = 0.4
KEEPALIVE_S = 15.0


def _format(event_id: int | None, kind: str, data: dict[str, Any]) -> str:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {kind}\ndata: {json.dumps(data, default=str)}\n\n"


Batch = list[tuple[int, str, dict[str, Any]]]


def _read(
    new_session: SessionMaker, run_id: int, after: int
) -> tuple[dict[str, Any] | None, Batch]:
    with new_session() as session:
        run = session.get(Run, run_id)
        if run is None:
            return None, []
        events = session.execute(
            select(RunEvent.id, RunEvent.kind, RunEvent.data, RunEvent.at)
            .where(RunEvent.run_id == run_id, RunEvent.id > after)
            .order_by(RunEvent.id)
            .limit(1000)
        ).all()
        snapshot = {"status": run.status, "progress": run.progress, "message": run.message}
        return snapshot, [(e.id, e.kind, {**e.data, "at": e.at.isoformat()}) for e in events]


async def events(
    new_session: SessionMaker, run_id: int, after: int, is_disconnected: Any
) -> AsyncIterator[str]:
    """Yield a snapshot, then every event after `after`, until the run ends or the client leaves."""
    snapshot, batch = await run_in_threadpool(_read, new_session, run_id, after)
    if snapshot is None:
        return
    yield _format(None, "snapshot", snapshot)
    idle = 0.0
    while True:
        for event_id, kind, data in batch:
            after = event_id
            yield _format(event_id, kind, data)
        if snapshot is not None and snapshot["status"] in TERMINAL and not batch:
            yield _format(None, "end", {"status": snapshot["status"]})
            return
        if await is_disconnected():
            return
        await asyncio.sleep(POLL_S)
        idle = 0.0 if batch else idle + POLL_S
        if idle >= KEEPALIVE_S:
            idle = 0.0
            yield ": keep-alive\n\n"
        snapshot, batch = await run_in_threadpool(_read, new_session, run_id, after)
