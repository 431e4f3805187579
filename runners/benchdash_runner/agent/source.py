"""Where the source comes from: a ref of this repository, checked out into the agent's work tree."""

from __future__ import annotations

import subprocess
from pathlib import Path

from benchdash_runner.childenv import child_env

FIXED_REFS = ("HEAD", "working-tree")


class SourceError(Exception):
    """The ref cannot be checked out; the message names it."""


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(repo), *args],
        capture_output=True,
        text=True,
        check=False,
        env=child_env(),  # git runs a checkout's hooks and filters: no credentials for them
    )


def resolve(repo: Path, ref: str) -> str:
    """The commit a branch, tag or commit (prefix) names, or SourceError naming the ref."""
    for candidate in (ref, f"origin/{ref}"):
        out = _git(repo, "rev-parse", "--verify", "--quiet", f"{candidate}^{{commit}}")
        if out.returncode == 0:
            return out.stdout.strip()
    raise SourceError(f"unknown ref {ref!r}: not a branch, tag or commit of this repository")


def checkout(repo: Path, ref: str, worktree: Path) -> tuple[Path, str | None]:
    """Check `ref` out into `worktree` (kept between runs so build caches survive).

    Returns the directory to run in and the commit. A checkout without git history (an image
    built from a copy of the source) can only run its own source, asked for as HEAD.
    """
    if not (repo / ".git").exists():
        if ref in FIXED_REFS:
            return repo, None
        raise SourceError(
            f"cannot check out {ref!r}: this agent's source has no git history; run ref 'HEAD'"
        )
    sha = resolve(repo, ref)
    if not (worktree / ".git").exists():
        worktree.parent.mkdir(parents=True, exist_ok=True)
        _git(repo, "worktree", "prune")
        added = _git(repo, "worktree", "add", "--detach", "--force", str(worktree), sha)
        if added.returncode != 0:
            raise SourceError(f"git worktree add failed: {added.stderr.strip()}")
    else:
        switched = _git(worktree, "checkout", "--force", "--detach", sha)
        if switched.returncode != 0:
            raise SourceError(f"git checkout {sha[:12]} failed: {switched.stderr.strip()}")
        _git(worktree, "clean", "-fd")  # untracked files go; ignored build caches stay
    return worktree, sha


def revlist(repo: Path, good: str, bad: str, first_parent: bool) -> list[dict[str, str]]:
    """The commits of `good..bad`, oldest first, each with its subject line and author
    (`git rev-list --reverse [--first-parent]`), or SourceError naming what is missing."""
    if not (repo / ".git").exists():
        raise SourceError("this agent's source has no git history: it cannot list commits")
    ends = [resolve(repo, good), resolve(repo, bad)]
    args = ["log", "--reverse", "--format=%H%x00%s%x00%an <%ae>"]
    if first_parent:
        args.append("--first-parent")
    out = _git(repo, *args, f"{ends[0]}..{ends[1]}")
    if out.returncode != 0:
        raise SourceError(f"git log {good[:12]}..{bad[:12]} failed: {out.stderr.strip()}")
    commits = []
    for line in out.stdout.splitlines():
        sha, subject, author = [*line.split("\x00"), "", ""][:3]
        commits.append({"sha": sha, "subject": subject, "author": author})
    return commits
