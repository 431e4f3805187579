"""Free-form JSON nests at most MAX_JSON_DEPTH deep: what the API stores it can serve."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from benchdash.kit.validation import MAX_JSON_DEPTH
from tests.fixtures.factories import auth, document, row_counts, token
from tests.fixtures.manifests import MANIFEST


def _nested(levels: int) -> dict[str, Any]:
    value: dict[str, Any] = {"leaf": 1}
    for _ in range(levels - 1):
        value = {"n": value}
    return value


@pytest.mark.parametrize(
    ("block", "levels", "status"), [("environment", 256, 422), ("configuration", 980, 400)]
)
def test_a_deeply_nested_block_is_refused_and_nothing_is_stored(
    client: TestClient, session: Session, block: str, levels: int, status: int
) -> None:
    """256 levels reach validation (422 naming the block); 980 stop the body's JSON parser."""
    headers = {**auth(token(session, "uvhttp")), "content-type": "application/json"}
    doc = document()
    doc[block] = {"deep": "DEEP"}
    # Encoded by hand: the client's own JSON encoder stops near a thousand levels.
    body = json.dumps(doc).replace('"DEEP"', '{"n": ' * levels + "1" + "}" * levels)
    before = row_counts(session)
    r = client.post("/api/v1/results", content=body, headers=headers)
    assert r.status_code == status, r.text
    if status == 422:
        assert f"nested deeper than {MAX_JSON_DEPTH} levels" in r.json()["detail"]
        assert block in r.json()["detail"]
    assert row_counts(session) == before


def test_nesting_up_to_the_limit_is_stored_and_served_back(
    client: TestClient, session: Session
) -> None:
    doc = document()
    doc["environment"] = _nested(MAX_JSON_DEPTH)
    r = client.post("/api/v1/results", json=doc, headers=auth(token(session, "uvhttp")))
    assert r.status_code == 201, r.text
    run = client.get(f"/api/v1/runs/{r.json()['run']['id']}")
    assert run.status_code == 200 and run.json()["environment"] == doc["environment"]


def test_a_manifest_driver_nested_too_deep_is_refused(client: TestClient, session: Session) -> None:
    manifest = {**MANIFEST, "driver": {**MANIFEST["driver"], "extra": _nested(300)}}
    headers = auth(token(session, "cachex", scope="agent"))
    r = client.put("/api/v1/systems/cachex/manifest", json=manifest, headers=headers)
    assert r.status_code == 422 and "nested deeper" in r.json()["detail"]
