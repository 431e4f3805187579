"""An admin edits a metric's bounds (PUT /systems/{slug}/metrics/{metric}/bounds): audited with
who and when like thresholds, enforced on later uploads (422); bad input is a clear 4xx and
changes nothing."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from benchdash.audit.models import AuditEvent
from tests.fixtures.api import post
from tests.fixtures.factories import auth, document, metric, row_counts, token

URL = "/api/v1/systems/uvhttp/metrics/{}/bounds"


def _doc(value: float, at: int) -> dict[str, object]:
    return document(metric(value=value), at=at)


def test_an_admin_sets_bounds_audited_and_enforced(client: TestClient, session: Session) -> None:
    up = auth(token(session, "uvhttp"))
    admin = auth(token(session, "uvhttp", scope="admin"))
    post(client, up, _doc(100.0, 0))
    name = "requests_per_second"
    r = client.put(URL.format(name), json={"min_value": 1, "max_value": 1e6}, headers=admin)
    assert r.status_code == 200, r.text
    body = r.json()
    assert (body["name"], body["min_value"], body["max_value"]) == (name, 1.0, 1e6)
    assert body["last_change"]["action"] == "bounds.set"
    assert body["last_change"]["by"].startswith("token:")
    assert body["last_change"]["detail"] == {
        "from": {"min": None, "max": None},
        "to": {"min": 1.0, "max": 1e6},
    }
    listed = {
        m["name"]: m for m in client.get("/api/v1/systems/uvhttp/metrics", headers=admin).json()
    }
    assert listed[name]["max_value"] == 1e6
    before = row_counts(session)
    refused = client.post("/api/v1/results", json=_doc(2e6, 1), headers=up)
    assert refused.status_code == 422 and "between 1 and 1e+06" in refused.json()["detail"]
    assert row_counts(session) == before
    post(client, up, _doc(200.0, 2))
    # Lifting the upper bound (null) lets the value in; the same bounds again audit nothing.
    assert client.put(
        URL.format(name), json={"min_value": 1, "max_value": None}, headers=admin
    ).is_success
    events = session.scalar(select(func.count()).select_from(AuditEvent))
    assert client.put(
        URL.format(name), json={"min_value": 1, "max_value": None}, headers=admin
    ).is_success
    assert session.scalar(select(func.count()).select_from(AuditEvent)) == events
    post(client, up, _doc(2e6, 3))


def test_bad_bounds_are_refused_and_change_nothing(client: TestClient, session: Session) -> None:
    post(client, auth(token(session, "uvhttp")), _doc(100.0, 0))
    admin = auth(token(session, "uvhttp", scope="admin"))
    trigger = auth(token(session, "uvhttp", scope="trigger"))
    before = row_counts(session), session.scalar(select(func.count()).select_from(AuditEvent))
    name = "requests_per_second"
    for body, status in [
        ({"min_value": 5, "max_value": 1}, 422),
        ({"min_value": "x", "max_value": 1}, 422),
        ({"min_value": 1}, 422),  # both sides are said, null for unbounded
    ]:
        r = client.put(URL.format(name), json=body, headers=admin)
        assert r.status_code == status, (body, r.text)
        assert r.headers["content-type"] == "application/problem+json"
    huge = '{"min_value": 1e309, "max_value": null}'  # infinity in JSON's own syntax
    json_admin = {**admin, "content-type": "application/json"}
    assert client.put(URL.format(name), content=huge, headers=json_admin).status_code == 422
    ok = {"min_value": 0, "max_value": 10}
    assert client.put(URL.format("nope"), json=ok, headers=admin).status_code == 404
    assert client.put(URL.format(name), json=ok, headers=trigger).status_code == 403
    assert client.put(URL.format(name), json=ok).status_code == 401
    after = row_counts(session), session.scalar(select(func.count()).select_from(AuditEvent))
    assert after == before
