"""A system names its source: admins set and read it (audited), the secret is stored encrypted
and never shown, a URL agents cannot clone is refused with nothing changed."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from benchdash.audit.models import AuditEvent
from benchdash.systems import secret_box
from benchdash.systems.models import System
from tests.fixtures.factories import auth, token
from tests.fixtures.manifests import MANIFEST

SECRET = "hook-secret-0123456789abcdef"


def _registered(client: TestClient, session: Session) -> dict[str, str]:
    agent = auth(token(session, "cachex", scope="agent"))
    assert client.put("/api/v1/systems/cachex/manifest", json=MANIFEST, headers=agent).is_success
    return auth(token(session, scope="admin"))


def test_an_admin_sets_the_source_and_never_sees_the_secret_again(
    client: TestClient, session: Session
) -> None:
    admin = _registered(client, session)
    body = {
        "source_url": "https://github.com/acme/cachex.git",
        "default_branch": "trunk",
        "followed_branches": ["release/1.x", "trunk"],
        "hook_secret": SECRET,
        "poll_interval_s": 300,
    }
    r = client.put("/api/v1/systems/cachex/source", json=body, headers=admin)
    assert r.status_code == 200, r.text
    assert SECRET not in r.text and r.json()["hook_secret_set"] is True
    got = client.get("/api/v1/systems/cachex/source", headers=admin).json()
    assert got == {**r.json(), "followed_branches": ["release/1.x", "trunk"]}
    stored = session.scalar(select(System.hook_secret).where(System.slug == "cachex"))
    assert stored is not None and SECRET not in stored and secret_box.decrypt(stored) == SECRET
    (event,) = session.scalars(select(AuditEvent).where(AuditEvent.action == "system.source")).all()
    assert event.target == "cachex" and SECRET not in str(event.detail)
    # omitting the secret keeps it; null forgets it
    keep = {k: v for k, v in body.items() if k != "hook_secret"}
    r = client.put("/api/v1/systems/cachex/source", json=keep, headers=admin)
    assert r.json()["hook_secret_set"] is True
    r = client.put(
        "/api/v1/systems/cachex/source", json={**keep, "hook_secret": None}, headers=admin
    )
    assert r.json()["hook_secret_set"] is False


def test_only_admins_set_the_source_and_admins_or_its_agents_read_it(
    client: TestClient, session: Session
) -> None:
    admin = _registered(client, session)
    upload = auth(token(session, "cachex"))
    body = {"source_url": "file:///srv/git/cachex.git"}
    assert client.put("/api/v1/systems/cachex/source", json=body, headers=upload).status_code == 403
    assert client.get("/api/v1/systems/cachex/source", headers=upload).status_code == 403
    assert client.put("/api/v1/systems/cachex/source", json=body, headers=admin).is_success
    agent = auth(token(session, "cachex", scope="agent"))
    assert (
        client.get("/api/v1/systems/cachex/source", headers=agent).json()["source_url"]
        == (body["source_url"])
    )
    assert client.put("/api/v1/systems/cachex/source", json=body, headers=agent).status_code == 403
    other = auth(token(session, "relay", scope="agent"))
    assert client.get("/api/v1/systems/cachex/source", headers=other).status_code == 403
    assert client.get("/api/v1/systems/cachex/source").status_code in (401, 403)


def test_a_url_agents_cannot_clone_is_refused_with_nothing_changed(
    client: TestClient, session: Session
) -> None:
    admin = _registered(client, session)
    good = {"source_url": "git@github.com:acme/cachex.git", "followed_branches": ["main"]}
    assert client.put("/api/v1/systems/cachex/source", json=good, headers=admin).is_success
    before = client.get("/api/v1/systems/cachex/source", headers=admin).json()
    for bad, says in (
        ("http://github.com/acme/cachex", "scheme 'http'"),
        ("ftp://host/x.git", "scheme 'ftp'"),
        ("/srv/git/x.git", "scheme '(none)'"),
        ("https:///no-host", "needs a host"),
        ("file://relative/x.git", "absolute path"),
        ("https://u:pw@github.com/acme/x", "no password"),
        ("https://github.com/acme/x y", "spaces"),
    ):
        r = client.put("/api/v1/systems/cachex/source", json={"source_url": bad}, headers=admin)
        assert r.status_code == 422 and says in r.text, (bad, r.text)
    for branches in (["-x"], ["a..b"], ["a b"], [""]):
        body = {**good, "followed_branches": branches}
        r = client.put("/api/v1/systems/cachex/source", json=body, headers=admin)
        assert r.status_code == 422, branches
    r = client.put(
        "/api/v1/systems/cachex/source", json={**good, "hook_secret": "short"}, headers=admin
    )
    assert r.status_code == 422
    assert client.get("/api/v1/systems/cachex/source", headers=admin).json() == before


def test_a_source_for_a_new_slug_makes_the_system(client: TestClient, session: Session) -> None:
    """A project is registered by naming its repository; its agents register its manifest."""
    admin = auth(token(session, scope="admin"))
    body = {"source_url": "https://github.com/acme/newproj.git", "hook_secret": SECRET}
    r = client.put("/api/v1/systems/newproj/source", json=body, headers=admin)
    assert r.status_code == 200 and r.json()["slug"] == "newproj", r.text
    assert client.get("/api/v1/systems/newproj").json()["slug"] == "newproj"
    r = client.put("/api/v1/systems/NoSuch!/source", json=body, headers=admin)
    assert r.status_code == 422
    assert session.scalar(select(System).where(System.slug == "NoSuch!")) is None


def test_a_claimed_run_carries_the_source_url_agents_fetch_from(
    client: TestClient, session: Session
) -> None:
    admin = _registered(client, session)
    body = {"source_url": "file:///srv/git/cachex.git"}
    assert client.put("/api/v1/systems/cachex/source", json=body, headers=admin).is_success
    trigger = auth(token(session, "cachex", scope="trigger"))
    r = client.post("/api/v1/runs", json={"system": "cachex", "ref": "main"}, headers=trigger)
    assert r.status_code == 201, r.text
    agent = auth(token(session, "cachex", scope="agent"))
    claim = {"name": "a/1", "host": "a"}
    got = client.post("/api/v1/systems/cachex/agents/claim", json=claim, headers=agent).json()
    assert got["run_id"] == r.json()["id"] and got["source_url"] == "file:///srv/git/cachex.git"
