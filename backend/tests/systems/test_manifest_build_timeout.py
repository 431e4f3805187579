"""A profile's build phase has its own time limit, `build_timeout_s` (issue 37 "Also"):
30 minutes unless the manifest says otherwise; a value that is not a positive whole number of
seconds up to a day is a 422 naming the field, and the system stays as it was."""

from __future__ import annotations

import copy

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests.fixtures.factories import auth, token
from tests.fixtures.manifests import MANIFEST


def test_the_build_limit_defaults_to_30_minutes_and_is_set_per_profile(
    client: TestClient, session: Session
) -> None:
    m = copy.deepcopy(MANIFEST)
    m["profiles"]["standard"]["build_timeout_s"] = 3600
    agent = auth(token(session, "cachex", scope="agent"))
    r = client.put("/api/v1/systems/cachex/manifest", json=m, headers=agent)
    assert r.status_code == 200, r.text
    admin = auth(token(session, scope="admin"))
    profiles = client.get("/api/v1/systems/cachex/manifest", headers=admin).json()["manifest"][
        "profiles"
    ]
    assert profiles["quick"]["build_timeout_s"] == 1800
    assert profiles["quick"]["time_limit_s"] == 300
    assert profiles["standard"]["build_timeout_s"] == 3600


@pytest.mark.parametrize("bad", [0, -5, 24 * 3600 + 1, "soon", 1.5, None])
def test_a_bad_build_limit_is_422_naming_it(
    client: TestClient, session: Session, bad: object
) -> None:
    agent = auth(token(session, "cachex", scope="agent"))
    assert client.put("/api/v1/systems/cachex/manifest", json=MANIFEST, headers=agent).is_success
    m = copy.deepcopy(MANIFEST)
    m["profiles"]["quick"]["build_timeout_s"] = bad
    r = client.put("/api/v1/systems/cachex/manifest", json=m, headers=agent)
    assert r.status_code == 422, r.text
    assert "build_timeout_s" in r.json()["detail"], r.json()
    admin = auth(token(session, scope="admin"))
    stored = client.get("/api/v1/systems/cachex/manifest", headers=admin).json()["manifest"]
    assert stored["profiles"]["quick"]["build_timeout_s"] == 1800  # unchanged
