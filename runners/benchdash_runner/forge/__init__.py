"""`benchdash upload --report github|gitlab`: the verdicts where the pull request is reviewed.

After a successful upload, the run's verdict table (`table.body`) is posted as one comment per
pull request and system, found again by its hidden marker and edited on every later run
(GitHub: plus a check run on the head commit, failure only on a confirmed fail; GitLab: a
merge request note). The confirmed steps still open on the run's branch come from the
server's alert list, read with the upload token. A report never changes the upload's exit
code: a forge error is printed as such, and a fork's pull request (no secrets) is skipped.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import httpx

from benchdash_runner.decision import Decision
from benchdash_runner.forge import github, gitlab, table
from benchdash_runner.forge.http import ForgeError
from benchdash_runner.forge.target import GITHUB, Target, add_arguments, from_env

__all__ = ["add_arguments", "fork_skip", "report"]


def fork_skip(ns: argparse.Namespace, system: str | None) -> str | None:
    """Why an upload without secrets is skipped: its `--report` pull request is a fork's."""
    if not getattr(ns, "report", None):
        return None
    target = from_env(ns, system or "?")
    return None if target.fork is None else target.skip


def report(
    ns: argparse.Namespace,
    *,
    response: dict[str, Any],
    decided: Decision,
    base_url: str,
    token: str,
    system: str,
) -> None:
    """Post the verdict table to the forge named by `--report`; say what happened on stderr."""
    target = from_env(ns, system)
    if target.skip:
        _say(f"report to {target.forge} skipped: {target.skip}")
        return
    run = response.get("run") or {}
    alerts = table.branch_alerts(_alerts(base_url, token, system, ns.timeout), run)
    text = table.body(
        response=response, alerts=alerts, base_url=base_url, system=system, decided=decided
    )
    try:
        if target.forge == GITHUB:
            done = github.post(
                target,
                text=text,
                marker=table.marker(system),
                conclusion=decided.conclusion,
                title=decided.title,
                details_url=_run_url(base_url, run),
                timeout=ns.timeout,
            )
        else:
            done = gitlab.post(
                target,
                text=text,
                marker=table.marker(system),
                decided=decided,
                target_url=_run_url(base_url, run),
                timeout=ns.timeout,
            )
    except ForgeError as e:
        _say(f"error: report to {target.forge} failed: {e}{_hint(target, e)}")
        return
    for line in done:
        _say(f"report: {line}")


def _alerts(base_url: str, token: str, system: str, timeout: float) -> list[dict[str, Any]]:
    """The system's open and acknowledged alerts; none (with a note) if they cannot be read."""
    url = base_url.rstrip("/") + "/api/v1/alerts"
    try:
        r = httpx.get(
            url,
            params={"system": system, "limit": 1000},
            headers={"Authorization": f"Bearer {token}"},
            timeout=timeout,
        )
        r.raise_for_status()
        data = r.json()
    except (httpx.HTTPError, ValueError) as e:
        _say(f"report: cannot read open alerts ({e}); showing this run's verdicts only")
        return []
    return [a for a in data if isinstance(a, dict)] if isinstance(data, list) else []


def _run_url(base_url: str, run: dict[str, Any]) -> str | None:
    return f"{base_url.rstrip('/')}{run['url']}" if run.get("url") else None


def _hint(target: Target, e: ForgeError) -> str:
    if " 401 " in str(e):
        return f" (is ${target.token_var} a valid token?)"
    if " 403 " in str(e) or " 404 " in str(e):
        if target.forge == GITHUB:
            return " (the workflow needs permissions: pull-requests: write, checks: write)"
        return " (the token needs the api scope and Reporter access or more)"
    return ""


def _say(message: str) -> None:
    print(f"benchdash: {message}", file=sys.stderr)
