"""The edge of the API: every refusal is problem+json, nothing unexpected leaks as text/plain."""

from __future__ import annotations

import gzip
import json

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import exc as sa_exc
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from benchdash.kit.request import RequestGuard
from benchdash.results.models import Measurement
from benchdash.runs.models import Run
from tests.fixtures.factories import auth, document, metric, token

PROBLEM = "application/problem+json"


def _is_problem(r: object, status: int) -> dict[str, object]:
    assert r.status_code == status, r.text  # type: ignore[attr-defined]
    assert r.headers["content-type"] == PROBLEM  # type: ignore[attr-defined]
    body: dict[str, object] = r.json()  # type: ignore[attr-defined]
    return body


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/runs/2147483648",
        "/api/v1/runs/0",
        "/api/v1/compare?base=-34359738367&head=1",
        "/api/v1/runs?offset=1e21",
        "/api/v1/runs?system=ab%00c",
        "/api/v1/series?system=x%00&benchmark=b&metric=m",
        "/api/v1/alerts?status=sideways",
    ],
)
def test_bad_paths_and_queries_get_422(client: TestClient, path: str) -> None:
    _is_problem(client.get(path), 422)


def test_cancel_of_an_impossible_run_id_is_422_before_the_auth_check(client: TestClient) -> None:
    _is_problem(client.post("/api/v1/runs/2147483648/cancel"), 422)


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d["run"].update(id=2**40),
        lambda d: d["run"].update(commit="ab\x00cd"),
        lambda d: d["results"][0].update(benchmark="x\x00y"),
        lambda d: d["environment"].update(os="\ud800"),
        lambda d: d["configuration"].update({"k\x00": 1}),
    ],
)
def test_unstorable_documents_get_422_and_store_nothing(
    client: TestClient, session: Session, mutate: object
) -> None:
    doc = document(metric(value=1.0))
    mutate(doc)  # type: ignore[operator]
    body = json.dumps(doc, ensure_ascii=True)
    before = session.scalar(select(func.count()).select_from(Run))
    r = client.post(
        "/api/v1/results",
        content=body,
        headers={**auth(token(session, "uvhttp")), "content-type": "application/json"},
    )
    _is_problem(r, 422)
    assert session.scalar(select(func.count()).select_from(Run)) == before


def test_a_wrong_method_gets_405_with_allow(client: TestClient) -> None:
    r = client.delete("/api/v1/results")
    _is_problem(r, 405)
    assert r.headers["allow"] == "POST"


def test_allow_does_not_take_a_word_for_an_integer_parameter(client: TestClient) -> None:
    # DELETE /notifications/subscriptions/{subscription_id} takes an integer: "mine" is not one
    r = client.options("/api/v1/notifications/subscriptions/mine")
    _is_problem(r, 405)
    assert r.headers["allow"] == "POST"
    r = client.options("/api/v1/notifications/subscriptions/7")
    assert r.headers["allow"] == "DELETE"
    r = client.options("/api/v1/notifications/subscriptions/-7")  # negative ids reach the route
    assert r.headers["allow"] == "DELETE"
    r = client.delete("/api/v1/notifications/subscriptions/mine")  # an undeclared method: 405
    _is_problem(r, 405)
    assert r.headers["allow"] == "POST"


def test_a_chunked_body_past_the_limit_gets_413(client: TestClient, session: Session) -> None:
    def chunks():  # type: ignore[no-untyped-def]
        for _ in range(11):
            yield b" " * (1024 * 1024)

    r = client.post(
        "/api/v1/results",
        content=chunks(),
        headers={**auth(token(session, "uvhttp")), "content-type": "application/json"},
    )
    _is_problem(r, 413)


def test_gzip_uploads_are_accepted(client: TestClient, session: Session) -> None:
    body = gzip.compress(json.dumps(document(metric(value=3.0))).encode())
    r = client.post(
        "/api/v1/results",
        content=body,
        headers={
            **auth(token(session, "uvhttp")),
            "content-type": "application/json",
            "content-encoding": "gzip",
        },
    )
    assert r.status_code == 201, r.text
    assert r.json()["verdicts"][0]["value"] == 3.0


def test_a_gzip_bomb_gets_413_and_stores_nothing(client: TestClient, session: Session) -> None:
    doc = document(metric(value=1.0))
    doc["configuration"] = {"padding": " " * (6 * 1024 * 1024)}
    bomb = gzip.compress(json.dumps(doc).encode())
    assert len(bomb) < 64 * 1024  # small on the wire, past the limit when inflated
    before = session.scalar(select(func.count()).select_from(Measurement))
    r = client.post(
        "/api/v1/results",
        content=bomb,
        headers={
            **auth(token(session, "uvhttp")),
            "content-type": "application/json",
            "content-encoding": "gzip",
        },
    )
    body = _is_problem(r, 413)
    assert "after decompression" in str(body["detail"])
    assert session.scalar(select(func.count()).select_from(Measurement)) == before


def test_broken_gzip_gets_400(client: TestClient, session: Session) -> None:
    r = client.post(
        "/api/v1/results",
        content=b"\x1f\x8b not really gzip",
        headers={**auth(token(session, "uvhttp")), "content-encoding": "gzip"},
    )
    _is_problem(r, 400)


def _app(error: Exception) -> TestClient:
    app = FastAPI()
    app.add_middleware(RequestGuard)

    @app.get("/boom")
    def boom() -> None:
        raise error

    return TestClient(app, raise_server_exceptions=False)


def test_an_unexpected_error_is_a_500_problem_naming_the_request() -> None:
    r = _app(RuntimeError("bug")).get("/boom")
    body = _is_problem(r, 500)
    assert r.headers["x-request-id"] in str(body["detail"])


def test_an_exhausted_pool_is_a_503_with_retry_after() -> None:
    r = _app(sa_exc.TimeoutError("QueuePool limit reached")).get("/boom")
    _is_problem(r, 503)
    assert r.headers["retry-after"] == "5"
