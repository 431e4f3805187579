"""The agent's `revlist` task: the commits of good..bad from a real git repository, oldest first,
first-parent by default, a merge's side commits when asked."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from benchdash_runner.agent.source import SourceError, revlist


def _git(root: Path, *args: str) -> str:
    cmd = ["git", "-C", str(root), "-c", "user.email=a@b", "-c", "user.name=Ann Example"]
    return subprocess.run([*cmd, *args], check=True, capture_output=True, text=True).stdout.strip()


def _commit(root: Path, name: str) -> str:
    (root / name).write_text(name)
    _git(root, "add", name)
    _git(root, "commit", "-qm", f"add {name}")
    return _git(root, "rev-parse", "HEAD")


def test_first_parent_range_oldest_first_and_a_merges_side_commits(tmp_path: Path) -> None:
    _git(tmp_path, "init", "-q", "-b", "main")
    good = _commit(tmp_path, "a")
    b = _commit(tmp_path, "b")
    _git(tmp_path, "checkout", "-qb", "side")
    side = [_commit(tmp_path, "s1"), _commit(tmp_path, "s2")]
    _git(tmp_path, "checkout", "-q", "main")
    c = _commit(tmp_path, "c")
    _git(tmp_path, "merge", "-q", "--no-ff", "-m", "merge side", "side")
    merge = _git(tmp_path, "rev-parse", "HEAD")
    line = revlist(tmp_path, good, merge, True)
    assert [x["sha"] for x in line] == [b, c, merge]
    assert line[0] == {"sha": b, "subject": "add b", "author": "Ann Example <a@b>"}
    everything = [x["sha"] for x in revlist(tmp_path, good, merge, False)]
    assert set(everything) == {b, c, merge, *side} and everything[-1] == merge
    assert revlist(tmp_path, good[:10], "main", True)[-1]["sha"] == merge


def test_unknown_ends_and_copies_without_history_are_errors(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no git history"):
        revlist(tmp_path, "a" * 40, "b" * 40, True)
    _git(tmp_path, "init", "-q")
    _commit(tmp_path, "a")
    with pytest.raises(SourceError, match="unknown ref"):
        revlist(tmp_path, "f" * 40, "HEAD", True)
