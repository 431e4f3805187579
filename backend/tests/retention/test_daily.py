"""The daily look: due a day after the last application (or when there was none), and one
process at a time holds the job while the others skip it without waiting."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.orm import Session

from benchdash.db import utcnow
from benchdash.retention import job


def test_due_a_day_after_the_last_application(session: Session) -> None:
    now = utcnow()
    assert job.due(session=session, now=now)
    job.apply(session=session, now=now)  # no rule: nothing to do, but audited
    assert not job.due(session=session, now=now + timedelta(hours=23))
    assert job.due(session=session, now=now + timedelta(days=1, seconds=1))


def test_one_process_at_a_time_holds_the_job() -> None:
    with job.only_one() as first:
        assert first
        with job.only_one() as second:
            assert not second  # answered at once, not waited for
    with job.only_one() as again:
        assert again, "the lock ends with the job"
