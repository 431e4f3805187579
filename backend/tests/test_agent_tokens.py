"""One token per runner agent (BENCHDASH_AGENT_TOKENS): its own system, scopes agent + upload,
stored hashed; enough for everything an agent does and nothing more (issue 23, item 1)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from benchdash.auth import service as auth_service
from benchdash.auth.models import ApiToken
from benchdash.startup import ensure_agent_tokens, parse_agent_tokens
from tests.fixtures.factories import auth, document, metric
from tests.fixtures.manifests import MANIFEST


def _pair() -> tuple[str, str]:
    return auth_service.generate_plain(), auth_service.generate_plain()


def test_each_agent_token_is_limited_to_its_system(session: Session) -> None:
    cachex, relay = _pair()
    ensure_agent_tokens(session=session, spec=f"cachex={cachex}, relay={relay}")
    ensure_agent_tokens(session=session, spec=f"cachex={cachex},relay={relay}")  # a restart
    rows = session.scalars(select(ApiToken).where(ApiToken.name.like("runner agent of %"))).all()
    assert sorted((r.name, r.systems, r.scopes) for r in rows) == [
        ("runner agent of cachex", ["cachex"], ["agent", "upload"]),
        ("runner agent of relay", ["relay"], ["agent", "upload"]),
    ]
    assert all(cachex not in (r.token_hash, r.prefix) and len(r.token_hash) == 64 for r in rows)
    who = auth_service.verify_token(session=session, plain=cachex)
    assert who.may("agent", "cachex") and who.may("upload", "cachex")
    assert not who.may("agent", "relay") and not who.may("upload", "relay")
    assert not who.may("trigger", "cachex") and not who.may("admin")


def test_the_spec_is_checked() -> None:
    assert parse_agent_tokens("") == {}
    assert parse_agent_tokens(" a=bd_x_y ,\nb=bd_z_w") == {"a": "bd_x_y", "b": "bd_z_w"}
    for bad in ("cachex", "=bd_x_y", "cachex="):
        with pytest.raises(ValueError, match="system=token"):
            parse_agent_tokens(bad)


def test_an_agent_token_does_what_the_agent_does_and_no_more(
    client: TestClient, session: Session
) -> None:
    cachex, relay = _pair()
    ensure_agent_tokens(session=session, spec=f"cachex={cachex},relay={relay}")
    agent = auth(cachex)
    r = client.put("/api/v1/systems/cachex/manifest", json=MANIFEST, headers=agent)
    assert r.status_code == 200, r.text
    other = {**MANIFEST, "system": "relay"}
    r = client.put("/api/v1/systems/relay/manifest", json=other, headers=agent)
    assert r.status_code == 403, r.text
    scheduled = {"system": "cachex", "ref": "main", "trigger": "schedule"}
    r = client.post("/api/v1/runs", json=scheduled, headers=agent)
    assert r.status_code == 201, r.text  # its manifest's cron, without the trigger scope
    run_id = r.json()["id"]
    r = client.post("/api/v1/runs", json={**scheduled, "trigger": "web"}, headers=agent)
    assert r.status_code == 403 and "trigger" in r.json()["detail"]
    r = client.post("/api/v1/runs", json={**scheduled, "system": "relay"}, headers=auth(cachex))
    assert r.status_code in (403, 409), r.text  # not its system (relay is not registered)
    r = client.post(f"/api/v1/runs/{run_id}/report", json={"status": "building"}, headers=agent)
    assert r.status_code == 200, r.text
    r = client.post(f"/api/v1/runs/{run_id}/report", json={}, headers=auth(relay))
    assert r.status_code == 403, r.text
    r = client.post(f"/api/v1/runs/{run_id}/cancel", headers=agent)
    assert r.status_code == 403, r.text
    body = document(metric("qps", "req/s", value=1.0), system="cachex", benchmark="cloud")
    body["run"]["id"] = run_id
    r = client.post("/api/v1/results", json=body, headers=agent)
    assert r.status_code == 201, r.text
    assert client.get(f"/api/v1/runs/{run_id}").json()["status"] == "completed"
