"""Poll mode, for repositories a webhook cannot come from: every `poll_interval_s` the API asks
a system's source for its branches' heads (`git ls-remote`) and queues a run of the head of the
default branch and of each followed branch that has no run yet, as a push event of it would.

Every API process runs the loop; one at a time polls (a try-lock: the others skip the tick), and
`system.polled_at` makes a poll due once per interval whichever process looks. A head is queued
once: the push run's lock and its commit check (hooks.service.on_push), and a head that already
has a run of any kind (a webhook's, `benchdash run`'s) is not queued again.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from benchdash.db import first_to_take
from benchdash.hooks import service
from benchdash.runs import lifecycle
from benchdash.runs.models import Run
from benchdash.systems import remote
from benchdash.systems.models import System

log = logging.getLogger("benchdash.poll")


def poll_due(*, session: Session, now: datetime, timeout_s: float) -> list[int]:
    """Poll the sources that are due; the ids of the runs queued."""
    if not first_to_take(session, "poll"):  # another API process is polling
        return []
    polled = select(System).where(  # no manifest: no agent has come yet, nothing to run
        System.poll_interval_s.is_not(None),
        System.source_url.is_not(None),
        System.manifest.is_not(None),
    )
    queued: list[int] = []
    for system in session.scalars(polled.order_by(System.id)).all():
        interval = timedelta(seconds=system.poll_interval_s or 0)
        if system.polled_at is not None and now - system.polled_at < interval:
            continue
        system.polled_at = now
        session.flush()
        queued += _poll(session, system, timeout_s)
    return queued


def _poll(session: Session, system: System, timeout_s: float) -> list[int]:
    url = system.source_url or ""
    refs = remote.ls_remote(url, timeout_s)
    if refs is None:
        log.warning("poll of %s: cannot read %s (git ls-remote failed or took over %g s)",
                    system.slug, url, timeout_s)  # fmt: skip
        return []
    default = system.default_branch or "main"
    queued = []
    for branch in dict.fromkeys([default, *(system.followed_branches or [])]):
        sha = refs.get(f"refs/heads/{branch}")
        if sha is None or _has_run(session, system.id, sha):
            continue
        result = service.on_push(
            session=session, system=system, ref=f"refs/heads/{branch}", sha=sha
        )
        if result.run_id is not None:
            lifecycle.add_event(
                session=session,
                run_id=result.run_id,
                kind="log",
                data={"lines": [f"queued by polling {url}: {branch} is at {sha}"]},
            )
            queued.append(result.run_id)
    return queued


def _has_run(session: Session, system_id: int, sha: str) -> bool:
    found = session.scalar(
        select(Run.id).where(Run.system_id == system_id, Run.commit == sha).limit(1)
    )
    return found is not None
