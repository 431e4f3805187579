"""A token's "Last used" is current: the admin's list writes this process's noted uses before it
reads, and a use whose row was locked at a flush is written at the next one, never dropped."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import Engine, delete, select
from sqlalchemy.orm import Session

from benchdash.auth import usage
from benchdash.auth.models import ApiToken
from tests.fixtures.factories import auth, token


def test_a_token_used_27_times_is_listed_as_used(client: TestClient, session: Session) -> None:
    ci = token(session, "cachex", scope="upload")
    admin = auth(token(session, scope="admin"))
    for _ in range(27):
        assert client.get("/api/v1/runs", headers=auth(ci)).status_code == 200
    listed = client.get("/api/v1/auth/tokens", headers=admin)
    assert listed.status_code == 200, listed.text
    prefix = ci.split("_")[1]
    (row,) = [t for t in listed.json() if t["prefix"] == prefix]
    assert row["last_used_at"] is not None, "used 27 times, listed as never used"
    assert usage.pending() == frozenset()


def test_a_use_skipped_on_a_locked_row_is_written_at_the_next_flush(engine: Engine) -> None:
    usage.forget()
    with Session(engine) as setup:
        plain = token(setup, scope="upload")
        setup.commit()
    prefix = plain.split("_")[1]
    try:
        with Session(engine) as s:
            token_id = s.scalars(select(ApiToken.id).where(ApiToken.prefix == prefix)).one()
        usage.note(token_id)
        with Session(engine) as holder:  # another transaction holds the token's row
            holder.execute(select(ApiToken).where(ApiToken.id == token_id).with_for_update())
            with Session(engine) as flusher:
                assert usage.flush(flusher) == 0  # skipped, without waiting on the lock
                flusher.commit()
            assert usage.pending() == {token_id}, "the skipped use was dropped"
        with Session(engine) as flusher:
            assert usage.flush(flusher) == 1
            flusher.commit()
        with Session(engine) as s:
            used = s.scalars(select(ApiToken.last_used_at).where(ApiToken.id == token_id)).one()
        assert used is not None
    finally:
        usage.forget()
        with Session(engine) as cleanup:
            cleanup.execute(delete(ApiToken).where(ApiToken.prefix == prefix))
            cleanup.commit()
