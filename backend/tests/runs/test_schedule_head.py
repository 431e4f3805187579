"""The cron runs the newest commit of the default branch, asked of the system's repository, and
skips a night whose commit already has a run of that profile."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from benchdash.runs import schedule
from benchdash.runs.models import Run
from benchdash.systems.models import Branch
from tests.fixtures.factories import auth, token
from tests.fixtures.manifests import MANIFEST
from tests.runs.test_refcheck import git, repository


def _system(client: TestClient, session: Session, url: str) -> None:
    agent = auth(token(session, "cachex", scope="agent"))
    assert client.put("/api/v1/systems/cachex/manifest", json=MANIFEST, headers=agent).is_success
    admin = auth(token(session, scope="admin"))
    r = client.put("/api/v1/systems/cachex/source", json={"source_url": url}, headers=admin)
    assert r.is_success, r.text


def _night(session: Session, day: int) -> list[Run]:
    tick = datetime(2026, 10, day, 3, 0, tzinfo=UTC)  # MANIFEST's cron: 0 3 * * *, quick
    ids = schedule.queue_due(
        session=session, now=tick + timedelta(seconds=5), grace_s=600, timeout_s=10
    )
    return [session.get_one(Run, i) for i in ids]


def test_each_night_runs_main_s_newest_commit_once(
    client: TestClient, session: Session, tmp_path: Path
) -> None:
    url, first = repository(tmp_path)
    _system(client, session, url)
    (run,) = _night(session, 1)
    assert (run.ref, run.commit, run.profile, run.trigger) == (first, first, "quick", "schedule")
    assert _night(session, 2) == []  # no new commit: nothing to measure
    work = tmp_path / "r"
    (work / "f").write_text("2\n")
    git(work, "commit", "-qam", "two")
    git(work, "push", "-q", str(tmp_path / "r.git"), "main")
    second = git(work, "rev-parse", "HEAD")
    (run,) = _night(session, 3)
    assert (run.ref, run.commit) == (second, second)
    assert session.get_one(Branch, run.branch_id).name == "main"
    # Cancelled runs do not count: the commit is measured the next night.
    run.status = "cancelled"
    session.flush()
    (again,) = _night(session, 4)
    assert again.commit == second
    assert _night(session, 5) == []
    commits = session.scalars(select(Run.commit).order_by(Run.id)).all()
    assert commits == [first, second, second]


def test_a_repository_the_api_cannot_read_gets_a_run_of_the_branch_by_name(
    client: TestClient, session: Session, tmp_path: Path
) -> None:
    _system(client, session, f"file://{tmp_path}/gone.git")
    (run,) = _night(session, 10)
    assert (run.ref, run.commit) == ("main", None)
