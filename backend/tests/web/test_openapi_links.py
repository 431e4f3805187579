"""OpenAPI links: every link names real operations and parameters, and following one works."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests.fixtures.factories import auth, document, metric, token


def _operations(spec: dict[str, Any]) -> dict[str, tuple[str, str, dict[str, Any]]]:
    return {
        op["operationId"]: (method, path, op)
        for path, methods in spec["paths"].items()
        for method, op in methods.items()
    }


def _pointer(body: Any, expression: str) -> Any:
    assert expression.startswith("$response.body#/"), expression
    for part in expression.removeprefix("$response.body#/").split("/"):
        body = body[int(part)] if isinstance(body, list) else body[part]
    return body


def test_links_name_real_operations_and_their_parameters(client: TestClient) -> None:
    spec = client.get("/api/openapi.json").json()
    ops = _operations(spec)
    links = [
        (source, link)
        for source, (_, _, op) in ops.items()
        for response in op["responses"].values()
        for link in response.get("links", {}).values()
    ]
    sources = {source for source, _ in links}
    assert {"runs-create_run", "results-create_result", "systems-register_manifest"} <= sources
    for source, link in links:
        _, _, target = ops[link["operationId"]]
        names = {p["name"] for p in target.get("parameters", [])}
        assert set(link["parameters"]) <= names, (source, link)


def test_following_the_upload_links_reads_what_was_stored(
    client: TestClient, session: Session
) -> None:
    spec = client.get("/api/openapi.json").json()
    ops = _operations(spec)
    r = client.post(
        "/api/v1/results",
        json=document(metric(value=1.0)),
        headers=auth(token(session, "uvhttp")),
    )
    assert r.status_code == 201, r.text
    links = ops["results-create_result"][2]["responses"]["201"]["links"]
    for name, link in links.items():
        method, path, _ = ops[link["operationId"]]
        assert method == "get", name
        query: dict[str, Any] = {}
        for param, expression in link["parameters"].items():
            value = _pointer(r.json(), expression)
            if "{" + param + "}" in path:
                path = path.replace("{" + param + "}", str(value))
            else:
                query[param] = value
        followed = client.get(path, params=query)
        assert followed.status_code == 200, (name, followed.text)
    read = client.get(f"/api/v1/runs/{r.json()['run']['id']}").json()
    assert read["id"] == r.json()["run"]["id"]
