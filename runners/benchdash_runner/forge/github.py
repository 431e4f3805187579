"""GitHub: one pull request comment updated in place, and a check run on the head commit.

Endpoints: GET/POST /repos/{repo}/issues/{n}/comments, PATCH /repos/{repo}/issues/comments/{id},
GET /repos/{repo}/commits/{sha}/check-runs, POST /repos/{repo}/check-runs and
PATCH /repos/{repo}/check-runs/{id}. The token needs `pull-requests: write` and
`checks: write` (the workflow's `permissions:`).
"""

from __future__ import annotations

from typing import Any

from benchdash_runner.forge.http import Api
from benchdash_runner.forge.target import Target

MAX_BODY = 65_000  # GitHub refuses comments and check texts over 65,536 characters


def post(
    target: Target,
    *,
    text: str,
    marker: str,
    conclusion: str,
    title: str,
    details_url: str | None,
    timeout: float,
) -> list[str]:
    """Update (or create) the comment and the check run; what was done, one line each."""
    headers = {
        "Authorization": f"Bearer {target.token}",
        "Accept": "application/vnd.github+json",
        "X-GitHub-Api-Version": "2022-11-28",
    }
    text = _fit(text)
    done = []
    with Api(name="GitHub", root=target.api_url, headers=headers, timeout=timeout) as api:
        repo = f"/repos/{target.repo}"
        if target.number is None:
            done.append("no pull request (not a pull_request event): no comment")
        else:
            comments = api.pages(f"{repo}/issues/{target.number}/comments")
            mine = [c for c in comments if str(c.get("body") or "").startswith(marker)]
            if mine:
                api.call("PATCH", f"{repo}/issues/comments/{mine[0]['id']}", {"body": text})
                done.append(f"updated comment {mine[0]['id']} on pull request #{target.number}")
            else:
                made = api.call("POST", f"{repo}/issues/{target.number}/comments", {"body": text})
                done.append(f"commented on pull request #{target.number} ({made.get('id')})")
        if target.sha:
            done.append(_check(api, target, text, conclusion, title, details_url))
    return done


def _check(
    api: Api, target: Target, text: str, conclusion: str, title: str, details_url: str | None
) -> str:
    repo = f"/repos/{target.repo}"
    check: dict[str, Any] = {
        "name": target.check_name,
        "head_sha": target.sha,
        "status": "completed",
        "conclusion": conclusion,
        "output": {"title": title[:1000], "summary": title, "text": text},
    }
    if details_url:
        check["details_url"] = details_url
    found = api.call("GET", f"{repo}/commits/{target.sha}/check-runs", check_name=target.check_name)
    runs = (found or {}).get("check_runs") or []
    if runs:
        api.call("PATCH", f"{repo}/check-runs/{runs[0]['id']}", check)
        return f"updated check run {runs[0]['id']} ({conclusion})"
    made = api.call("POST", f"{repo}/check-runs", check)
    return f"created check run {made.get('id')} ({conclusion})"


def _fit(text: str) -> str:
    if len(text) <= MAX_BODY:
        return text
    return text[: MAX_BODY - 80].rsplit("\n", 1)[0] + "\n\n_(cut: the full table is on the run)_\n"
