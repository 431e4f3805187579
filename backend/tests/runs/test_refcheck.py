"""A ref is checked against the system's repository before its run is queued: a branch or tag
that is not there is refused with a 422 naming it, queues nothing and adds no branch; a
repository the API cannot read (or not in time) queues the run anyway and says so."""

from __future__ import annotations

import socket
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from benchdash.config import get_settings
from benchdash.runs.models import Run
from benchdash.systems.models import Branch
from tests.fixtures.factories import auth, token
from tests.fixtures.manifests import MANIFEST

GIT = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid"}
GIT |= {"GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid", "HOME": "/tmp"}


def git(cwd: Path, *args: str) -> str:
    out = subprocess.run(["git", *args], cwd=cwd, env=GIT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def repository(tmp: Path) -> tuple[str, str]:
    """A bare repository with `main`, `feature/x` and tag `v1` (annotated): its URL, main's SHA."""
    bare, work = tmp / "r.git", tmp / "r"
    git(tmp, "init", "-q", "--bare", "-b", "main", str(bare))
    git(tmp, "init", "-q", "-b", "main", str(work))
    (work / "f").write_text("1\n")
    git(work, "add", ".")
    git(work, "commit", "-qm", "one")
    git(work, "tag", "-a", "v1", "-m", "v1")
    git(work, "branch", "feature/x")
    git(work, "push", "-q", str(bare), "main", "feature/x", "v1")
    return f"file://{bare}", git(work, "rev-parse", "HEAD")


def setup(client: TestClient, session: Session, url: str) -> dict[str, str]:
    agent = auth(token(session, "cachex", scope="agent"))
    assert client.put("/api/v1/systems/cachex/manifest", json=MANIFEST, headers=agent).is_success
    admin = auth(token(session, scope="admin"))
    r = client.put("/api/v1/systems/cachex/source", json={"source_url": url}, headers=admin)
    assert r.is_success, r.text
    return auth(token(session, "cachex", scope="trigger"))


def counts(session: Session) -> tuple[int, list[str]]:
    runs = session.scalar(select(func.count()).select_from(Run)) or 0
    return runs, sorted(session.scalars(select(Branch.name)).all())


def test_a_ref_the_repository_lacks_is_refused_naming_it_and_nothing_is_added(
    client: TestClient, session: Session, tmp_path: Path
) -> None:
    url, sha = repository(tmp_path)
    trigger = setup(client, session, url)
    before = counts(session)
    r = client.post("/api/v1/runs", json={"system": "cachex", "ref": "mian"}, headers=trigger)
    assert r.status_code == 422, r.text
    assert "'mian'" in r.json()["detail"] and url in r.json()["detail"]
    assert r.json()["errors"][0]["loc"] == ["body", "ref"]
    assert counts(session) == before  # no run, and no branch called `mian`
    for ref in ("main", "feature/x", "v1", "refs/heads/main", sha, sha[:10]):
        r = client.post("/api/v1/runs", json={"system": "cachex", "ref": ref}, headers=trigger)
        assert r.status_code == 201, (ref, r.text)
        assert r.json()["ref"] == ref and r.json()["ref_warning"] is None


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A TCP port that accepts and never answers (a git:// host that hangs)."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    done = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not done.is_set():
            try:
                held.append(server.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    done.set()
    thread.join()
    for s in [*held, server]:
        s.close()


def test_a_repository_the_api_cannot_read_in_time_queues_the_run_and_says_so(
    client: TestClient, session: Session, silent_server: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BENCHDASH_REF_CHECK_TIMEOUT_S", "1")
    get_settings.cache_clear()
    try:
        trigger = setup(client, session, f"git://127.0.0.1:{silent_server}/r.git")
        r = client.post("/api/v1/runs", json={"system": "cachex", "ref": "main"}, headers=trigger)
    finally:
        get_settings.cache_clear()
    assert r.status_code == 201, r.text
    warning = r.json()["ref_warning"]
    assert "within 1 s" in warning and "queued anyway" in warning and "'main'" in warning


def test_a_missing_repository_queues_the_run_and_says_so(
    client: TestClient, session: Session, tmp_path: Path
) -> None:
    trigger = setup(client, session, f"file://{tmp_path}/gone.git")
    r = client.post("/api/v1/runs", json={"system": "cachex", "ref": "main"}, headers=trigger)
    assert r.status_code == 201 and "could not read" in r.json()["ref_warning"], r.text
