"""Health, readiness, the UI fallback and the OpenAPI contract."""

from fastapi.testclient import TestClient


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
