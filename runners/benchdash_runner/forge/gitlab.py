"""GitLab: a commit status on the pipeline's commit, and one merge request note updated in place.

Endpoints: POST /projects/{id}/statuses/{sha} (every pipeline with a commit, inside a merge
request or not), GET/POST /projects/{id}/merge_requests/{iid}/notes and
PUT /projects/{id}/merge_requests/{iid}/notes/{note_id}. The token (a project or personal
access token with the `api` scope; the job token can write neither) is sent as PRIVATE-TOKEN.

GitLab's statuses have no "neutral": a neutral decision is posted as `success` whose
description starts with "neutral:", so `failed` ⇔ the CLI exits 2, as on GitHub.
"""

from __future__ import annotations

from urllib.parse import quote

from benchdash_runner.decision import FAILURE, NEUTRAL, Decision
from benchdash_runner.forge.http import Api
from benchdash_runner.forge.target import Target

MAX_DESCRIPTION = 255  # GitLab keeps this many characters of a status's description


def state(decided: Decision) -> tuple[str, str]:
    """The commit status's state and description for a decision."""
    words = decided.title
    if decided.conclusion == NEUTRAL:
        first = (decided.neutral or [""])[0]
        words = f"neutral: {words}" + (f" · {first}" if first else "")
    out = "failed" if decided.conclusion == FAILURE else "success"
    return out, words[: MAX_DESCRIPTION - 1] + "…" if len(words) > MAX_DESCRIPTION else words


def post(
    target: Target,
    *,
    text: str,
    marker: str,
    decided: Decision,
    target_url: str | None,
    timeout: float,
) -> list[str]:
    """Post the commit status, then update (or create) the merge request note; what was done."""
    headers = {"PRIVATE-TOKEN": target.token}
    project = f"/projects/{quote(target.repo, safe='')}"
    done = []
    with Api(name="GitLab", root=target.api_url, headers=headers, timeout=timeout) as api:
        if target.sha:
            st, description = state(decided)
            body = {"state": st, "name": target.check_name, "description": description}
            if target_url:
                body["target_url"] = target_url
            if target.ref:
                body["ref"] = target.ref
            api.call("POST", f"{project}/statuses/{target.sha}", body)
            done.append(f"commit status {st} on {target.sha[:12]} ({target.check_name})")
        if target.number is None:
            done.append("no merge request (not a merge request pipeline): no note")
            return done
        notes_path = f"{project}/merge_requests/{target.number}/notes"
        notes = api.pages(notes_path, sort="asc", order_by="created_at")
        mine = [n for n in notes if str(n.get("body") or "").startswith(marker)]
        if mine:
            api.call("PUT", f"{notes_path}/{mine[0]['id']}", {"body": text})
            done.append(f"updated note {mine[0]['id']} on merge request !{target.number}")
        else:
            made = api.call("POST", notes_path, {"body": text})
            done.append(f"noted on merge request !{target.number} ({made.get('id')})")
    return done
