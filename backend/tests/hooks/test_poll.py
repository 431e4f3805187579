"""Poll mode: a source with a poll interval is asked for its heads once per interval, and the
new head of a followed branch is queued exactly once; one API process polls at a time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from benchdash.hooks import poll
from benchdash.runs.models import Run
from benchdash.systems.models import Branch
from tests.fixtures.factories import auth, token
from tests.fixtures.manifests import MANIFEST
from tests.runs.test_refcheck import git, repository

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def _polled(client: TestClient, session: Session, url: str) -> dict[str, str]:
    agent = auth(token(session, "cachex", scope="agent"))
    assert client.put("/api/v1/systems/cachex/manifest", json=MANIFEST, headers=agent).is_success
    admin = auth(token(session, scope="admin"))
    body = {"source_url": url, "followed_branches": ["feature/x"], "poll_interval_s": 60}
    assert client.put("/api/v1/systems/cachex/source", json=body, headers=admin).is_success
    return auth(token(session, "cachex", scope="trigger"))


def _push(tmp: Path, branch: str, text: str) -> str:
    work = tmp / "r"
    git(work, "checkout", "-q", branch)
    (work / "f").write_text(text)
    git(work, "commit", "-qam", text)
    git(work, "push", "-q", str(tmp / "r.git"), branch)
    return git(work, "rev-parse", "HEAD")


def _runs(session: Session) -> list[tuple[str | None, str, str]]:
    rows = session.execute(
        select(Run.commit, Branch.name, Run.trigger)
        .join(Branch, Branch.id == Run.branch_id)
        .order_by(Run.id)
    ).all()
    return [tuple(r) for r in rows]


def _taken(session: Session) -> None:
    """An agent took every queued run (a queued push run is retargeted by a newer head)."""
    for run in session.scalars(select(Run).where(Run.status == "queued")).all():
        run.status, run.agent = "running", "agent-1"
    session.flush()


def test_each_new_head_of_a_followed_branch_is_queued_once_per_interval(
    client: TestClient, session: Session, tmp_path: Path
) -> None:
    url, first = repository(tmp_path)
    trigger = _polled(client, session, url)
    assert len(poll.poll_due(session=session, now=T0, timeout_s=10)) == 1
    assert _runs(session) == [(first, "main", "push")]  # feature/x is at the same commit
    _taken(session)
    second = _push(tmp_path, "main", "2")
    assert poll.poll_due(session=session, now=T0 + timedelta(seconds=30), timeout_s=10) == []
    (run_id,) = poll.poll_due(session=session, now=T0 + timedelta(seconds=61), timeout_s=10)
    assert session.get_one(Run, run_id).commit == second
    _taken(session)
    assert poll.poll_due(session=session, now=T0 + timedelta(seconds=130), timeout_s=10) == []
    third = _push(tmp_path, "feature/x", "3")
    unfollowed = tmp_path / "r"
    git(unfollowed, "checkout", "-q", "-b", "other")
    _push(tmp_path, "other", "4")  # not followed: never queued
    assert len(poll.poll_due(session=session, now=T0 + timedelta(seconds=200), timeout_s=10)) == 1
    _taken(session)
    # A head that already has a run (here `benchdash run`'s) is not queued again.
    fourth = _push(tmp_path, "main", "5")
    r = client.post("/api/v1/runs", json={"system": "cachex", "ref": fourth}, headers=trigger)
    assert r.status_code == 201, r.text
    assert poll.poll_due(session=session, now=T0 + timedelta(seconds=300), timeout_s=10) == []
    assert _runs(session) == [
        (first, "main", "push"),
        (second, "main", "push"),
        (third, "feature/x", "push"),
        (fourth, "main", "web"),
    ]


def test_one_api_process_polls_at_a_time(
    client: TestClient, session: Session, engine: Engine, tmp_path: Path
) -> None:
    url, _ = repository(tmp_path)
    _polled(client, session, url)
    assert len(poll.poll_due(session=session, now=T0, timeout_s=10)) == 1  # holds the job lock
    with engine.connect() as other_conn, Session(bind=other_conn) as other:
        assert poll.poll_due(session=other, now=T0 + timedelta(hours=1), timeout_s=10) == []
        other.rollback()


def test_a_source_the_api_cannot_read_is_skipped_until_its_next_interval(
    client: TestClient, session: Session, tmp_path: Path
) -> None:
    _polled(client, session, f"file://{tmp_path}/gone.git")
    assert poll.poll_due(session=session, now=T0, timeout_s=10) == []
    assert _runs(session) == []
