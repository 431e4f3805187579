"""POST /api/v1/results refusals: bad documents, oversized bodies, credentials and conflicts
answer clearly and store nothing."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests.fixtures.factories import auth, document, metric, row_counts, token
from tests.results.test_ingest_api import DESIGN_EXAMPLE, _post


def _bad(doc: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    target = doc
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return doc


BAD_DOCUMENTS = [
    ("nan", ["results", 0, "metrics", 0, "value"], float("nan"), "finite"),
    ("empty results", ["results"], [], "at least 1"),
    ("unknown direction", ["results", 0, "metrics", 0, "direction"], "sideways", "direction"),
    ("missing system", ["system"], KeyError, "system"),
    (
        "negative count",
        ["results", 0, "metrics", 0],
        metric("errors", "count", "lower_is_better", value=-1),
        "negative",
    ),
]


@pytest.mark.parametrize(
    ("label", "path", "value", "phrase"), BAD_DOCUMENTS, ids=[b[0] for b in BAD_DOCUMENTS]
)
def test_bad_documents_are_rejected_and_store_nothing(
    client: TestClient, session: Session, label: str, path: list[Any], value: Any, phrase: str
) -> None:
    headers = auth(token(session, "uvhttp"))
    before = row_counts(session)
    body = json.dumps(_bad(DESIGN_EXAMPLE, path, value), allow_nan=True)
    r = client.post(
        "/api/v1/results", content=body, headers={**headers, "content-type": "application/json"}
    )
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    problem = r.json()
    assert phrase in problem["detail"]
    assert problem["errors"], "the problem names the field"
    assert row_counts(session) == before


def test_six_mib_body_is_413(client: TestClient, session: Session) -> None:
    headers = auth(token(session, "uvhttp"))
    before = row_counts(session)
    doc = copy.deepcopy(DESIGN_EXAMPLE)
    doc["configuration"] = {"padding": "x" * (6 * 1024 * 1024)}
    r = client.post("/api/v1/results", json=doc, headers=headers)
    assert r.status_code == 413
    assert r.headers["content-type"].startswith("application/problem+json")
    assert "5 MiB" in r.json()["detail"]
    assert row_counts(session) == before


@pytest.mark.parametrize(
    ("label", "make_headers", "status", "phrase"),
    [
        ("no token", lambda s: {}, 401, "Authorization: Bearer"),
        ("wrong token", lambda s: auth("bd_000000000000_" + "x" * 43), 401, "not valid"),
        ("malformed header", lambda s: {"Authorization": "Token abc"}, 401, "Bearer <token>"),
        ("other system", lambda s: auth(token(s, "relay")), 403, "relay only"),
        (
            "trigger scope",
            lambda s: auth(token(s, "uvhttp", scope="trigger")),
            403,
            "'upload' scope",
        ),
    ],
)
def test_credentials_are_checked_and_store_nothing(
    client: TestClient, session: Session, label: str, make_headers: Any, status: int, phrase: str
) -> None:
    headers = make_headers(session)
    before = row_counts(session)
    r = client.post("/api/v1/results", json=DESIGN_EXAMPLE, headers=headers)
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert phrase in r.json()["detail"]
    assert row_counts(session) == before


def test_unit_conflict_with_stored_metric_rolls_back(client: TestClient, session: Session) -> None:
    headers = auth(token(session, "uvhttp"))
    _post(client, headers, document(metric(samples=[100.0] * 5), at=0))
    before = row_counts(session)
    r = client.post(
        "/api/v1/results",
        json=document(metric(unit="MiB/s", samples=[1.0] * 5), at=1),
        headers=headers,
    )
    assert r.status_code == 422
    assert "stored as req/s" in r.json()["detail"]
    assert row_counts(session) == before


def test_duplicate_series_in_one_document(client: TestClient, session: Session) -> None:
    headers = auth(token(session, "uvhttp"))
    doc = document(metric(samples=[1.0] * 3))
    doc["results"].append(copy.deepcopy(doc["results"][0]))
    before = row_counts(session)
    r = client.post("/api/v1/results", json=doc, headers=headers)
    assert r.status_code == 422
    assert "repeats benchmark" in r.json()["detail"]
    assert row_counts(session) == before
