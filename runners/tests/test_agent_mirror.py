"""Agents fetch: the system's source is mirrored in the work directory and fetched before each
run, so a commit pushed after the mirror was made is checked out; a missing ref is named.
Real git, a bare repository in a temporary directory; git credentials reach git only."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from benchdash_runner.agent.source import SourceError, checkout_source, fetch_env, mirror

GIT_ID = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.org",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.org",
}


def _git(cwd: Path, *args: str) -> str:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(cwd), **GIT_ID}
    out = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def _commit(work: Path, text: str) -> str:
    (work / "bench.txt").write_text(text)
    _git(work, "add", "bench.txt")
    _git(work, "commit", "-q", "-m", text)
    _git(work, "push", "-q", "origin", "HEAD:main")
    return _git(work, "rev-parse", "HEAD")


@pytest.fixture
def upstream(tmp_path: Path) -> tuple[str, Path]:
    bare = tmp_path / "project.git"
    _git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    work = tmp_path / "work"
    _git(tmp_path, "clone", "-q", str(bare), str(work))
    _git(work, "checkout", "-q", "-b", "main")
    return f"file://{bare}", work


def test_a_commit_pushed_after_the_mirror_was_made_is_checked_out(
    upstream: tuple[str, Path], tmp_path: Path
) -> None:
    url, work = upstream
    first = _commit(work, "v1")
    agent = tmp_path / "agent"
    tree, sha = checkout_source(url, "main", agent)
    assert sha == first and (tree / "bench.txt").read_text() == "v1"
    assert (agent / "mirror.git" / "HEAD").exists()
    second = _commit(work, "v2")  # pushed after the agent made its mirror
    tree, sha = checkout_source(url, "main", agent)
    assert sha == second and (tree / "bench.txt").read_text() == "v2"
    tree, sha = checkout_source(url, first[:12], agent)  # an exact older commit, too
    assert sha == first and (tree / "bench.txt").read_text() == "v1"


def test_a_ref_missing_after_the_fetch_fails_naming_it(
    upstream: tuple[str, Path], tmp_path: Path
) -> None:
    url, work = upstream
    _commit(work, "v1")
    with pytest.raises(SourceError, match=r"unknown ref 'no-such-branch'.*after a fetch"):
        checkout_source(url, "no-such-branch", tmp_path / "agent")
    with pytest.raises(SourceError, match="git clone"):
        mirror(f"file://{tmp_path}/absent.git", tmp_path / "other")


def test_git_credentials_reach_git_only(monkeypatch: pytest.MonkeyPatch) -> None:
    from benchdash_runner.childenv import child_env

    monkeypatch.setenv("BENCHDASH_GIT_SSH_COMMAND", "ssh -i /keys/deploy")
    monkeypatch.setenv("BENCHDASH_GIT_TOKEN", "tok-123")
    env = fetch_env()
    assert env["GIT_SSH_COMMAND"] == "ssh -i /keys/deploy"
    assert env["GIT_CONFIG_KEY_0"] == "http.extraHeader" and "Basic" in env["GIT_CONFIG_VALUE_0"]
    bench = child_env()
    assert not any("tok-123" in v or "/keys/deploy" in v for v in bench.values())
    assert "BENCHDASH_GIT_TOKEN" not in bench and "GIT_SSH_COMMAND" not in bench
