"""Where a report goes: the forge's API, the repository, the pull request and the token.

Read from the CI environment (GitHub Actions: GITHUB_TOKEN, GITHUB_REPOSITORY,
GITHUB_EVENT_PATH, GITHUB_SHA, GITHUB_API_URL; GitLab CI: CI_API_V4_URL, CI_PROJECT_ID,
CI_MERGE_REQUEST_IID, CI_COMMIT_SHA and a token in BENCHDASH_GITLAB_TOKEN), each overridable
by a `--report-*` flag. A pull request from a fork is named as such: its job gets no secrets
(and on GitHub a read-only token), so the report is skipped, saying why.
"""

from __future__ import annotations

import argparse
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

GITHUB, GITLAB = "github", "gitlab"
TOKEN_VARS = {GITHUB: "GITHUB_TOKEN", GITLAB: "BENCHDASH_GITLAB_TOKEN"}


@dataclass(frozen=True, kw_only=True)
class Target:
    """One report's destination; `skip` says why nothing can be posted (else None)."""

    forge: str
    api_url: str
    repo: str  # GitHub owner/name; GitLab project id or path
    number: int | None  # pull request number / merge request IID (None: not a PR pipeline)
    sha: str | None
    token: str
    token_var: str
    fork: str | None  # the fork's name when the PR comes from one
    check_name: str
    ref: str | None = None  # GitLab: the branch of the commit status

    @property
    def skip(self) -> str | None:
        """Why nothing can be posted, or None."""
        if self.fork:
            return f"the pull request comes from the fork {self.fork}: its job gets no secrets"
        if not self.token:
            return f"${self.token_var} is not set (no token for the {self.forge} API)"
        if not self.repo:
            return "no repository (set --report-repo)"
        return None


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The `--report` flags of `benchdash upload`."""
    p.add_argument(
        "--report",
        choices=(GITHUB, GITLAB),
        help="also post the verdicts to the pull request (comment + check) or merge request note",
    )
    p.add_argument("--report-api-url", metavar="URL", help="default $GITHUB_API_URL/$CI_API_V4_URL")
    p.add_argument("--report-repo", metavar="R", help="owner/name or GitLab project id or path")
    p.add_argument("--report-number", type=int, metavar="N", help="pull/merge request number")
    p.add_argument("--report-sha", metavar="SHA", help="commit of the check (default: PR head)")
    p.add_argument("--report-token-var", metavar="VAR", help="variable holding the forge token")
    p.add_argument("--report-check-name", metavar="NAME", help="default 'benchdash / SYSTEM'")


def from_env(ns: argparse.Namespace, system: str) -> Target:
    """The target of `--report` from the flags, then the CI environment."""
    env = os.environ
    token_var = ns.report_token_var or TOKEN_VARS[ns.report]
    token = env.get(token_var, "").strip()
    if ns.report == GITLAB and not token and not ns.report_token_var:
        token = env.get("GITLAB_TOKEN", "").strip()
    check_name = ns.report_check_name or f"benchdash / {system}"
    if ns.report == GITHUB:
        event = _event(env.get("GITHUB_EVENT_PATH"))
        pr = event.get("pull_request") or {}
        head_repo = ((pr.get("head") or {}).get("repo") or {}).get("full_name")
        base_repo = ((pr.get("base") or {}).get("repo") or {}).get("full_name")
        return Target(
            forge=GITHUB,
            api_url=(ns.report_api_url or env.get("GITHUB_API_URL") or "https://api.github.com"),
            repo=ns.report_repo or env.get("GITHUB_REPOSITORY", ""),
            number=ns.report_number or pr.get("number") or _pr_from_ref(env.get("GITHUB_REF")),
            sha=ns.report_sha or (pr.get("head") or {}).get("sha") or env.get("GITHUB_SHA"),
            token=token,
            token_var=token_var,
            fork=head_repo if head_repo and base_repo and head_repo != base_repo else None,
            check_name=check_name,
        )
    source = env.get("CI_MERGE_REQUEST_SOURCE_PROJECT_ID")
    target = env.get("CI_MERGE_REQUEST_PROJECT_ID")
    iid = env.get("CI_MERGE_REQUEST_IID", "")
    return Target(
        forge=GITLAB,
        api_url=ns.report_api_url or env.get("CI_API_V4_URL") or "https://gitlab.com/api/v4",
        repo=ns.report_repo or target or env.get("CI_PROJECT_ID", ""),
        number=ns.report_number or (int(iid) if iid.isdigit() else None),
        sha=ns.report_sha or env.get("CI_COMMIT_SHA"),
        token=token,
        token_var=token_var,
        fork=(
            env.get("CI_MERGE_REQUEST_SOURCE_PROJECT_PATH") or f"project {source}"
            if source and target and source != target
            else None
        ),
        check_name=check_name,
        ref=env.get("CI_MERGE_REQUEST_SOURCE_BRANCH_NAME") or env.get("CI_COMMIT_REF_NAME"),
    )


def _event(path: str | None) -> dict[str, Any]:
    if not path:
        return {}
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _pr_from_ref(ref: str | None) -> int | None:
    m = re.fullmatch(r"refs/pull/(\d+)/(?:merge|head)", ref or "")
    return int(m.group(1)) if m else None
