"""Push webhooks queue runs: a signed push to a followed branch queues exactly its head, a
forged one is refused with no run made, a burst leaves one queued run of the newest head."""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from benchdash.runs.models import Run
from tests.fixtures.factories import auth, token
from tests.fixtures.manifests import MANIFEST

SECRET = "push-secret-0123456789abcdef"
URL = "https://github.com/acme/cachex"


def _setup(client: TestClient, session: Session) -> None:
    agent = auth(token(session, "cachex", scope="agent"))
    assert client.put("/api/v1/systems/cachex/manifest", json=MANIFEST, headers=agent).is_success
    admin = auth(token(session, scope="admin"))
    body = {"source_url": URL + ".git", "followed_branches": ["release"], "hook_secret": SECRET}
    assert client.put("/api/v1/systems/cachex/source", json=body, headers=admin).is_success


def _push(sha: str, branch: str = "main") -> bytes:
    repo = {"clone_url": URL + ".git", "ssh_url": "git@github.com:acme/cachex.git"}
    return json.dumps({"ref": f"refs/heads/{branch}", "after": sha, "repository": repo}).encode()


def _github(client: TestClient, body: bytes, secret: str = SECRET, event: str = "push") -> Any:
    sig = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    headers = {
        "x-github-event": event,
        "x-hub-signature-256": sig,
        "content-type": "application/json",
    }
    return client.post("/api/v1/hooks/github", content=body, headers=headers)


def _push_runs(session: Session) -> list[tuple[str | None, str | None, str]]:
    rows = session.execute(
        select(Run.ref, Run.commit, Run.profile).where(Run.trigger == "push").order_by(Run.id)
    ).all()
    return [(r[0], r[1], str(r[2])) for r in rows]


def test_a_signed_push_queues_a_run_of_exactly_its_head(
    client: TestClient, session: Session
) -> None:
    _setup(client, session)
    sha = "a1" * 20
    r = _github(client, _push(sha))
    assert r.status_code == 202, r.text
    assert r.json()["commit"] == sha and r.json()["run_id"] is not None
    assert _push_runs(session) == [(sha, sha, "quick")]  # the schedule's profile
    run = client.get(f"/api/v1/runs/{r.json()['run_id']}").json()
    assert run["status"] == "queued" and run["trigger"] == "push" and run["branch"] == "main"
    # the same head again (a redelivery) queues nothing more
    assert _github(client, _push(sha)).json()["ignored"].endswith("already has a push run")
    assert len(_push_runs(session)) == 1


def test_a_forged_or_missing_signature_is_refused_and_queues_nothing(
    client: TestClient, session: Session
) -> None:
    _setup(client, session)
    body = _push("b2" * 20)
    assert _github(client, body, secret="not-the-secret-at-all").status_code == 401
    r = client.post("/api/v1/hooks/github", content=body, headers={"x-github-event": "push"})
    assert r.status_code == 401 and "X-Hub-Signature-256" in r.json()["detail"]
    tampered = body.replace(b"b2", b"c3")
    sig = "sha256=" + hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()
    headers = {"x-github-event": "push", "x-hub-signature-256": sig}
    assert client.post("/api/v1/hooks/github", content=tampered, headers=headers).status_code == 401
    r = client.post(
        "/api/v1/hooks/gitlab?system=cachex",
        json={"object_kind": "push"},
        headers={"x-gitlab-token": "wrong-token-0123456789"},
    )
    assert r.status_code == 401
    assert _push_runs(session) == []


def test_a_burst_of_pushes_leaves_one_run_of_the_newest_head(
    client: TestClient, session: Session
) -> None:
    _setup(client, session)
    heads = [f"{i:x}" * 40 for i in range(1, 5)]
    answers = [_github(client, _push(sha)).json() for sha in heads]
    assert [a["retargeted"] for a in answers] == [False, True, True, True]
    assert len({a["run_id"] for a in answers}) == 1
    assert _push_runs(session) == [(heads[-1], heads[-1], "quick")]


def test_only_followed_branches_and_pushes_queue_runs(client: TestClient, session: Session) -> None:
    _setup(client, session)
    assert _github(client, _push("d4" * 20, "feature")).json()["ignored"] == (
        "branch 'feature' is not followed"
    )
    r = _github(
        client, json.dumps({"zen": "hi", "repository": {"clone_url": URL}}).encode(), event="ping"
    )
    assert r.status_code == 202 and "not a push" in r.json()["ignored"]
    assert _github(client, _push("0" * 40)).json()["ignored"].startswith("no new head")
    assert _push_runs(session) == []
    r = _github(client, _push("e5" * 20, "release"))
    assert r.status_code == 202 and r.json()["run_id"] is not None
    gl = {
        "object_kind": "push",
        "ref": "refs/heads/main",
        "after": "f6" * 20,
        "project": {"git_http_url": URL + ".git"},
    }
    r = client.post("/api/v1/hooks/gitlab", json=gl, headers={"x-gitlab-token": SECRET})
    assert r.status_code == 202 and r.json()["commit"] == "f6" * 20
    assert [c for _, c, _ in _push_runs(session)] == ["e5" * 20, "f6" * 20]


def test_a_body_that_is_not_a_push_payload_is_a_clear_422(
    client: TestClient, session: Session
) -> None:
    _setup(client, session)
    for body in (b"{not json", b"[1, 2]", json.dumps({"ref": 5}).encode()):
        r = _github(client, body)
        assert r.status_code == 422 and "webhook body" in r.json()["detail"], body
    r = _github(client, json.dumps({"repository": {"clone_url": "https://x.org/o/r"}}).encode())
    assert r.status_code == 404 and "?system=" in r.json()["detail"]
    assert _push_runs(session) == []
