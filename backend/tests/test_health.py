"""Health, readiness, the UI fallback and the OpenAPI contract."""

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from benchdash import deps, health


def test_health_and_ready(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    r = client.get("/readyz")
    assert r.status_code == 200 and r.json()["status"] == "ready"


def test_unknown_api_path_is_a_problem(client: TestClient) -> None:
    r = client.get("/api/v1/nothing-here")
    assert r.status_code == 404 and r.headers["content-type"].startswith("application/problem+json")


def test_operation_ids_are_stable(client: TestClient) -> None:
    spec = client.get("/api/openapi.json").json()
    ids = {op["operationId"] for path in spec["paths"].values() for op in path.values()}
    assert {
        "results-create_result",
        "series-read_series",
        "runs-read_run",
        "alerts-acknowledge_alert",
        "systems-read_systems",
        "runs-read_comparison",
    } <= ids
    assert "MinMaxLTTB" in spec["paths"]["/api/v1/series"]["get"]["description"]


def test_committed_result_schema_is_current() -> None:
    from benchdash.cli import result_schema
    from benchdash.config import REPO_ROOT

    committed = (REPO_ROOT / "runners" / "schema" / "result.schema.json").read_text()
    assert committed == result_schema(), (
        "run: benchdash-server schema > runners/schema/result.schema.json"
    )


def _problem_503(r: object) -> dict[str, object]:
    assert r.status_code == 503, r.text  # type: ignore[attr-defined]
    assert r.headers["content-type"] == "application/problem+json"  # type: ignore[attr-defined]
    assert r.headers["retry-after"].isdigit()  # type: ignore[attr-defined]
    body: dict[str, object] = r.json()  # type: ignore[attr-defined]
    assert body["status"] == 503 and body["title"] == "Service unavailable"
    return body


def test_readyz_during_a_migration_is_a_503_problem(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(health, "alembic_head", lambda: "9999_not_yet")
    body = _problem_503(client.get("/readyz"))
    assert "9999_not_yet" in str(body["detail"])


def test_readyz_without_a_database_is_a_503_problem(client: TestClient) -> None:
    # A real engine at a port nothing listens on: the connection is refused.
    dead = create_engine("postgresql+psycopg://benchdash@127.0.0.1:9/none?connect_timeout=2")

    def no_database() -> Iterator[Session]:
        with Session(dead) as s:
            yield s

    client.app.dependency_overrides[deps.request_session] = no_database  # type: ignore[attr-defined]
    body = _problem_503(client.get("/readyz"))
    assert "database" in str(body["detail"])
    dead.dispose()
