"""The rules: stored in order and audited, bad ones refused with words (nothing changed), and
only an admin of every system may read or set them, or see the dry run."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from benchdash.audit.models import AuditEvent
from tests.fixtures.factories import auth, token
from tests.retention.seed import RULES

URL = "/api/v1/retention/rules"


def _audits(session: Session) -> int:
    count = select(func.count()).where(AuditEvent.action == "retention.rules.set")
    return int(session.scalar(count) or 0)


def test_rules_are_stored_in_order_and_audited(client: TestClient, session: Session) -> None:
    admin = auth(token(session, scope="admin"))
    empty = client.get(URL, headers=admin).json()
    assert empty == {"rules": [], "updated_by": None, "updated_at": None}
    rules = [{"system": None, "branch": "release/[0-9]*"}, *RULES[:1]]
    r = client.put(URL, json={"rules": rules}, headers=admin)
    assert r.status_code == 200, r.text
    got = client.get(URL, headers=admin).json()
    fields = ("position", "branch", "delete_after_days", "summarise_after_days")
    stored = [tuple(x[f] for f in fields) for x in got["rules"]]
    assert stored == [(1, "release/[0-9]*", None, None), (2, "main", None, 100)]
    assert got["updated_by"].startswith("token:")
    assert _audits(session) == 1
    assert client.put(URL, json={"rules": rules}, headers=admin).status_code == 200
    assert _audits(session) == 1, "the same rules again change nothing"
    assert client.get(URL, headers=admin).json() == got
    assert client.put(URL, json={"rules": []}, headers=admin).json()["rules"] == []
    event = session.scalars(select(AuditEvent).order_by(AuditEvent.id.desc()).limit(1)).one()
    assert len(event.detail["from"]) == 2 and event.detail["to"] == []


BAD: list[tuple[dict[str, Any], str]] = [
    ({"branch": "feature/[ab"}, "never closes"),
    ({"branch": "my branch"}, "a git branch name never does"),
    ({"branch": ""}, "is empty"),
    ({"branch": "*", "delete_after_days": 0}, "greater than or equal to 1"),
    ({"branch": "*", "delete_after_days": -5}, "greater than or equal to 1"),
    ({"branch": "*", "delete_after_days": "soon"}, "valid integer"),
    ({"branch": "*", "summarise_after_days": 400000}, "less than or equal to 36500"),
    ({"branch": "*", "delete_after_days": 90, "summarise_after_days": 365}, "must be less than"),
    ({"branch": "*", "system": "nope"}, "no system 'nope'"),
]


@pytest.mark.parametrize(("rule", "words"), BAD)
def test_a_bad_rule_is_422_with_words_and_changes_nothing(
    client: TestClient, session: Session, rule: dict[str, Any], words: str
) -> None:
    admin = auth(token(session, scope="admin"))
    assert client.put(URL, json={"rules": [RULES[0]]}, headers=admin).status_code == 200
    before, audits = client.get(URL, headers=admin).json(), _audits(session)
    r = client.put(URL, json={"rules": [RULES[0], rule]}, headers=admin)
    assert r.status_code == 422, r.text
    assert words in r.text
    assert client.get(URL, headers=admin).json() == before
    assert _audits(session) == audits


def test_a_repeated_rule_is_422(client: TestClient, session: Session) -> None:
    admin = auth(token(session, scope="admin"))
    twice = [RULES[0], {**RULES[0], "delete_after_days": 900}]
    r = client.put(URL, json={"rules": twice}, headers=admin)
    assert r.status_code == 422 and "repeats branch 'main'" in r.text


@pytest.mark.parametrize("scope", ["upload", "trigger", "agent", "admin-of-one"])
def test_only_an_admin_of_every_system_may(
    client: TestClient, session: Session, scope: str
) -> None:
    plain = token(session, "uvhttp", scope="admin") if scope == "admin-of-one" else None
    headers = auth(plain or token(session, scope=scope))
    admin = auth(token(session, scope="admin"))
    assert client.put(URL, json={"rules": RULES[:1]}, headers=admin).status_code == 200
    before = client.get(URL, headers=admin).json()
    for call in (
        client.get(URL, headers=headers),
        client.put(URL, json={"rules": []}, headers=headers),
        client.get("/api/v1/retention/preview", headers=headers),
    ):
        assert call.status_code == 403, call.text
    assert client.get(URL).status_code == 401
    assert client.get(URL, headers=admin).json() == before
