"""Where the source comes from: a ref of this repository, or of the system's source URL (a bare
mirror in the agent's work directory, fetched before each run), checked out into a work tree.

Git credentials (BENCHDASH_GIT_SSH_COMMAND, BENCHDASH_GIT_TOKEN) reach only the clone and the
fetch; checkouts, and the benchmark after them, get the allow-listed environment (childenv).
"""

from __future__ import annotations

import base64
import os
import subprocess
from pathlib import Path

from benchdash_runner.childenv import child_env

FIXED_REFS = ("HEAD", "working-tree")


class SourceError(Exception):
    """The ref cannot be checked out; the message names it."""


def _git(
    repo: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(repo), *args],
        capture_output=True,
        text=True,
        check=False,
        env=env or child_env(),  # a checkout runs hooks and filters: no credentials for them
    )


def fetch_env(environ: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a clone or fetch: childenv's, plus the agent's git credentials."""
    environ = dict(os.environ) if environ is None else environ
    env = {**child_env(environ), "GIT_TERMINAL_PROMPT": "0"}
    if environ.get("BENCHDASH_GIT_SSH_COMMAND"):
        env["GIT_SSH_COMMAND"] = environ["BENCHDASH_GIT_SSH_COMMAND"]
    if environ.get("BENCHDASH_GIT_TOKEN"):
        basic = base64.b64encode(f"x-access-token:{environ['BENCHDASH_GIT_TOKEN']}".encode())
        env.update(
            GIT_CONFIG_COUNT="1",
            GIT_CONFIG_KEY_0="http.extraHeader",
            GIT_CONFIG_VALUE_0=f"Authorization: Basic {basic.decode()}",
        )
    return env


def _has_history(repo: Path) -> bool:
    return (repo / ".git").exists() or ((repo / "objects").is_dir() and (repo / "HEAD").exists())


def mirror(url: str, workdir: Path) -> Path:
    """`<workdir>/mirror.git`, a bare mirror of `url`: cloned once, fetched (pruned) each call."""
    path = workdir / "mirror.git"
    if not (path / "HEAD").exists():
        workdir.mkdir(parents=True, exist_ok=True)
        out = subprocess.run(
            ["git", "clone", "--mirror", "--quiet", url, str(path)],
            capture_output=True,
            text=True,
            check=False,
            env=fetch_env(),
        )
        if out.returncode != 0:
            raise SourceError(f"git clone {url} failed: {out.stderr.strip()[-500:]}")
        return path
    out = _git(path, "fetch", "--prune", "--quiet", "origin", env=fetch_env())
    if out.returncode != 0:
        raise SourceError(f"git fetch from {url} failed: {out.stderr.strip()[-500:]}")
    return path


def resolve(repo: Path, ref: str) -> str:
    """The commit a branch, tag or commit (prefix) names, or SourceError naming the ref."""
    for candidate in (ref, f"origin/{ref}"):
        out = _git(repo, "rev-parse", "--verify", "--quiet", f"{candidate}^{{commit}}")
        if out.returncode == 0:
            return out.stdout.strip()
    raise SourceError(f"unknown ref {ref!r}: not a branch, tag or commit of this repository")


def checkout_source(url: str, ref: str, workdir: Path) -> tuple[Path, str]:
    """Fetch the system's source, then check the exact commit of `ref` out into
    `<workdir>/checkout` (a work tree of the mirror); SourceError names a missing ref."""
    repo = mirror(url, workdir)
    try:
        sha = resolve(repo, ref)
    except SourceError:
        raise SourceError(f"unknown ref {ref!r}: not in {url} after a fetch") from None
    worktree = workdir / "checkout"
    return _into_worktree(repo, sha, worktree), sha


def checkout(repo: Path, ref: str, worktree: Path) -> tuple[Path, str | None]:
    """Check `ref` out into `worktree` (kept between runs so build caches survive).

    Returns the directory to run in and the commit. A checkout without git history (an image
    built from a copy of the source) can only run its own source, asked for as HEAD.
    """
    if not _has_history(repo):
        if ref in FIXED_REFS:
            return repo, None
        raise SourceError(
            f"cannot check out {ref!r}: this agent's source has no git history; run ref 'HEAD'"
        )
    sha = resolve(repo, ref)
    return _into_worktree(repo, sha, worktree), sha


def _into_worktree(repo: Path, sha: str, worktree: Path) -> Path:
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
    return worktree


def revlist(repo: Path, good: str, bad: str, first_parent: bool) -> list[dict[str, str]]:
    """The commits of `good..bad`, oldest first, each with its subject line and author
    (`git rev-list --reverse [--first-parent]`), or SourceError naming what is missing."""
    if not _has_history(repo):
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
