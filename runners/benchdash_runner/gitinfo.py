"""Find the commit, branch and a stable upload id from the CI environment or from git.

Order: GitHub Actions, then GitLab CI, then the git checkout in `cwd`. CI variables win
because CI checkouts are often detached (`git rev-parse --abbrev-ref HEAD` says `HEAD`)
and pull-request builds check out a merge commit.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any


def detect(cwd: str | Path | None = None, env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Return {commit, branch, base_branch} (each a str or None) from CI variables, then git;
    base_branch is a pull or merge request's target branch."""
    env = os.environ if env is None else env
    commit: str | None = None
    branch: str | None = None
    base = env.get("GITHUB_BASE_REF") or env.get("CI_MERGE_REQUEST_TARGET_BRANCH_NAME") or None
    if env.get("GITHUB_ACTIONS") == "true" or env.get("GITHUB_SHA"):
        commit = _github_pr_head_sha(env) or env.get("GITHUB_SHA") or None
        # On pull_request events GITHUB_REF_NAME is "<n>/merge"; the head branch is what
        # people mean.
        branch = env.get("GITHUB_HEAD_REF") or env.get("GITHUB_REF_NAME") or None
    elif env.get("GITLAB_CI") == "true" or env.get("CI_COMMIT_SHA"):
        commit = env.get("CI_COMMIT_SHA") or None
        branch = (
            env.get("CI_MERGE_REQUEST_SOURCE_BRANCH_NAME") or env.get("CI_COMMIT_REF_NAME") or None
        )
    if commit is None:
        commit = _git(["rev-parse", "HEAD"], cwd)
    if branch is None:
        name = _git(["rev-parse", "--abbrev-ref", "HEAD"], cwd)
        branch = name if name and name != "HEAD" else None
    return {"commit": commit, "branch": branch, "base_branch": base}


def in_ci(env: Mapping[str, str] | None = None) -> bool:
    """Tell whether we run inside a CI job (GitHub Actions, GitLab CI or any CI=true)."""
    env = os.environ if env is None else env
    return any(env.get(k, "").lower() == "true" for k in ("CI", "GITHUB_ACTIONS", "GITLAB_CI"))


def external_id(
    *,
    system: str,
    paths: Iterable[Path],
    commit: str | None,
    env: Mapping[str, str] | None = None,
) -> str:
    """Return an id that is the same when the same upload is retried, and new otherwise.

    GitHub: `gh-<run_id>-<run_attempt>-<system>`; GitLab: `gl-<pipeline_id>-<job_id>-<system>`;
    elsewhere `git-<commit>-<system>-<hash of the inputs>` (or `local-...` without git).
    """
    env = os.environ if env is None else env
    if env.get("GITHUB_RUN_ID"):
        return f"gh-{env['GITHUB_RUN_ID']}-{env.get('GITHUB_RUN_ATTEMPT') or '1'}-{system}"
    if env.get("CI_PIPELINE_ID") and env.get("CI_JOB_ID"):
        return f"gl-{env['CI_PIPELINE_ID']}-{env['CI_JOB_ID']}-{system}"
    digest = inputs_digest(paths)
    if commit:
        return f"git-{commit[:12]}-{system}-{digest}"
    return f"local-{system}-{digest}"


def inputs_digest(paths: Iterable[Path], length: int = 12) -> str:
    """Hash the contents of the given files (directories recursively) into a short hex id."""
    h = hashlib.sha256()
    for path in sorted(Path(p) for p in paths):
        files = sorted(f for f in path.rglob("*") if f.is_file()) if path.is_dir() else [path]
        for f in files:
            h.update(f.relative_to(path).as_posix().encode() if path.is_dir() else f.name.encode())
            h.update(b"\0")
            try:
                h.update(f.read_bytes())
            except OSError:
                h.update(b"<unreadable>")
            h.update(b"\0")
    return h.hexdigest()[:length]


def _git(args: list[str], cwd: str | Path | None) -> str | None:
    try:
        out = subprocess.run(
            ["git", *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    value = out.stdout.strip()
    return value if out.returncode == 0 and value else None


def _github_pr_head_sha(env: Mapping[str, str]) -> str | None:
    """On pull_request events, return the PR head commit (GITHUB_SHA is the merge commit)."""
    if not env.get("GITHUB_EVENT_NAME", "").startswith("pull_request"):
        return None
    event_path = env.get("GITHUB_EVENT_PATH")
    if not event_path:
        return None
    try:
        event = json.loads(Path(event_path).read_text(encoding="utf-8"))
        sha = event["pull_request"]["head"]["sha"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return sha if isinstance(sha, str) and sha else None
