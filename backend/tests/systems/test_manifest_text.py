"""Manifest registration refuses text PostgreSQL cannot store with a 422 naming the field."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests.fixtures.factories import auth, token
from tests.fixtures.manifests import MANIFEST

PROBLEM = "application/problem+json"


def _put(client: TestClient, session: Session, manifest: dict[str, Any]) -> Any:
    body = json.dumps(manifest, ensure_ascii=True)  # a lone surrogate travels as \ud800
    return client.put(
        "/api/v1/systems/cachex/manifest",
        content=body,
        headers={
            **auth(token(session, "cachex", scope="agent")),
            "content-type": "application/json",
        },
    )


BAD = ["\x00", "quick\x00", "\ud800", "a\udfffb", ""]


@pytest.mark.parametrize("bad", BAD)
def test_a_bad_profile_name_is_422_naming_profiles(
    client: TestClient, session: Session, bad: str
) -> None:
    m = copy.deepcopy(MANIFEST)
    m["profiles"][bad] = {"time_limit_s": 60}
    r = _put(client, session, m)
    assert r.status_code == 422, r.text
    assert r.headers["content-type"] == PROBLEM
    problem = r.json()
    assert any(e["loc"][0] == "profiles" for e in problem["errors"]), problem
    assert "profiles" in problem["detail"]


@pytest.mark.parametrize("bad", BAD[:4])
def test_a_bad_schedule_is_422(client: TestClient, session: Session, bad: str) -> None:
    m = copy.deepcopy(MANIFEST)
    m["schedule"] = {"cron": "0 3 * * *", "profile": bad}
    r = _put(client, session, m)
    assert r.status_code == 422 and r.headers["content-type"] == PROBLEM, r.text
    assert "schedule" in r.json()["detail"]
    m["schedule"] = {"cron": "0 3 * * *" + bad, "profile": "quick"}
    r = _put(client, session, m)
    assert r.status_code == 422 and r.headers["content-type"] == PROBLEM, r.text


def test_a_profile_name_longer_than_a_run_can_store_is_422(
    client: TestClient, session: Session
) -> None:
    m = copy.deepcopy(MANIFEST)
    m["profiles"]["p" * 41] = {}
    r = _put(client, session, m)
    assert r.status_code == 422 and "profiles" in r.json()["detail"], r.text


def test_the_good_manifest_still_registers(client: TestClient, session: Session) -> None:
    r = _put(client, session, copy.deepcopy(MANIFEST))
    assert r.status_code == 200, r.text
    assert r.json()["profiles"] == ["quick", "standard"]
