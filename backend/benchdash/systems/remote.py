"""What a system's repository holds now, asked with `git ls-remote` (the API's own view: it has
none of the agents' credentials, so a private repository may be out of its reach).

`None` from a look-up means "could not tell" (unreachable, refused, too slow): callers go on
without the answer and say so, never fail on it.
"""

from __future__ import annotations

import os
import subprocess

REV_CHARS = set("~^@:{}")  # a revision expression (main~3, v1^{}): not a ref name to look up
SHA_CHARS = set("0123456789abcdef")
_ENV = {
    "GIT_TERMINAL_PROMPT": "0",  # never wait on a password prompt
    "GIT_SSH_COMMAND": "ssh -o BatchMode=yes -o ConnectTimeout=5",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def ls_remote(url: str, timeout_s: float) -> dict[str, str] | None:
    """Every ref of the repository at `url` with its SHA, or None when it cannot be read."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": "/nonexistent", **_ENV}
    try:
        out = subprocess.run(
            ["git", "ls-remote", "--", url],
            capture_output=True,
            text=True,
            timeout=timeout_s,
            env=env,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    refs = {}
    for line in out.stdout.splitlines():
        sha, _, name = line.partition("\t")
        if name:
            refs[name] = sha
    return refs


def resolve(refs: dict[str, str], ref: str) -> str | None:
    """The SHA a name (branch, tag, full ref or HEAD) points at in `refs`, or None."""
    for name in (ref, f"refs/heads/{ref}", f"refs/tags/{ref}"):
        if name in refs:
            return refs.get(f"{name}^{{}}", refs[name])  # an annotated tag: its commit
    return None


def checkable(ref: str) -> bool:
    """Whether `ref` is a name ls-remote can confirm (not a SHA, not a revision expression)."""
    is_sha = 4 <= len(ref) <= 40 and set(ref) <= SHA_CHARS
    return not is_sha and not set(ref) & REV_CHARS and ref not in ("HEAD", "working-tree")


def head_of(url: str | None, branch: str, timeout_s: float) -> str | None:
    """The commit `branch` of the repository at `url` points at now, or None if not known."""
    if not url or timeout_s <= 0:
        return None
    refs = ls_remote(url, timeout_s)
    return None if refs is None else refs.get(f"refs/heads/{branch}")
