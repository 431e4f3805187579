"""Background jobs name their transactions, and a job every API process runs is done by one at a
time without any of them waiting (db.background, db.first_to_take)."""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from benchdash.db import APP_NAME, background, first_to_take, transaction

_SEEN = text("SELECT application_name FROM pg_stat_activity WHERE pid = pg_backend_pid()")


def test_a_background_transaction_is_named_and_the_name_ends_with_it() -> None:
    with background("probe job") as session:
        assert session.execute(_SEEN).scalar_one() == f"{APP_NAME} background: probe job"
    with transaction() as session:  # the pooled connection, back to the process's name
        assert session.execute(_SEEN).scalar_one() == APP_NAME


def test_one_transaction_at_a_time_takes_a_job_and_the_others_do_not_wait(engine: Engine) -> None:
    with Session(engine) as first, Session(engine) as second:
        first.execute(text("SET LOCAL lock_timeout = '1s'"))
        second.execute(text("SET LOCAL lock_timeout = '1s'"))
        assert first_to_take(first, "probe")
        assert not first_to_take(second, "probe")  # answered at once: no lock wait
        assert first_to_take(second, "another job")
        first.commit()  # the lock ends with its transaction
        second.rollback()
        assert first_to_take(second, "probe")
        second.rollback()
