"""GitLab: one merge request note updated in place.

Endpoints: GET/POST /projects/{id}/merge_requests/{iid}/notes and
PUT /projects/{id}/merge_requests/{iid}/notes/{note_id}. The token (a project or personal
access token with the `api` scope; the job token cannot write notes) is sent as PRIVATE-TOKEN.
"""

from __future__ import annotations

from urllib.parse import quote

from benchdash_runner.forge.http import Api
from benchdash_runner.forge.target import Target


def post(target: Target, *, text: str, marker: str, timeout: float) -> list[str]:
    """Update (or create) the merge request note; what was done."""
    if target.number is None:
        return ["no merge request (not a merge request pipeline): no note"]
    headers = {"PRIVATE-TOKEN": target.token}
    project = quote(target.repo, safe="")
    notes_path = f"/projects/{project}/merge_requests/{target.number}/notes"
    with Api(name="GitLab", root=target.api_url, headers=headers, timeout=timeout) as api:
        notes = api.pages(notes_path, sort="asc", order_by="created_at")
        mine = [n for n in notes if str(n.get("body") or "").startswith(marker)]
        if mine:
            api.call("PUT", f"{notes_path}/{mine[0]['id']}", {"body": text})
            return [f"updated note {mine[0]['id']} on merge request !{target.number}"]
        made = api.call("POST", notes_path, {"body": text})
        return [f"noted on merge request !{target.number} ({made.get('id')})"]
