"""The OpenAPI document's patterns mean the same to every engine that reads them.

A client (Schemathesis, a generated TypeScript validator) checks a value against the pattern
the document states; pydantic checks it with its Rust engine. Where the two disagree, a value
the document allows is refused (422) or the other way round. `\\s`, `\\d`, `\\w` and `\\b`
differ between ECMAScript, Python's `re` and Rust's `regex`; a spelled-out class does not.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Annotated, Any

import pytest
from fastapi.testclient import TestClient
from pydantic import TypeAdapter, ValidationError
from pydantic.types import StringConstraints
from sqlalchemy.orm import Session

from benchdash.kit.validation import HTTP_URL
from tests.fixtures.factories import auth, document, metric, token

ENGINE_DEPENDENT = re.compile(r"(?<!\\)(?:\\\\)*\\[sSdDwWbB]")

# Characters on which the engines' shorthand classes disagree, and some they agree on.
TRICKY = ["\x1c", "\x1f", "\x85", "\xa0", "\u2028", "\u3000", "\ufeff", "\u0663", "é", " ", "\t"]


def _pydantic_accepts(pattern: str, value: str) -> bool:
    """Whether pydantic's (Rust) engine accepts `value` for `pattern`."""
    try:
        TypeAdapter(Annotated[str, StringConstraints(pattern=pattern)]).validate_python(value)
    except ValidationError:
        return False
    return True


def _patterns(node: Any, where: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "pattern" and isinstance(value, str):
                yield where, value
            else:
                yield from _patterns(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _patterns(value, f"{where}/{i}")


def test_no_pattern_uses_an_engine_dependent_class(client: TestClient) -> None:
    spec = client.get("/api/openapi.json").json()
    patterns = list(_patterns(spec))
    assert len(patterns) > 20, patterns
    offenders = [(where, p) for where, p in patterns if ENGINE_DEPENDENT.search(p)]
    assert offenders == []


def test_every_pattern_agrees_between_python_and_pydantic(client: TestClient) -> None:
    spec = client.get("/api/openapi.json").json()
    patterns = sorted({p for _, p in _patterns(spec)})
    probes = ["https://github.com/acme/x", "quick", "abc", "a.b-c_1", "0123456"]
    probes += [f"https://git{c}hub.com/a{c}b" for c in TRICKY]
    probes += [f"https://github.com/a{c}" for c in TRICKY] + [f"a{c}b" for c in TRICKY]
    for pattern in patterns:
        for probe in probes:
            assert _pydantic_accepts(pattern, probe) == bool(re.search(pattern, probe)), (
                pattern,
                probe,
            )


@pytest.mark.parametrize(
    ("url", "ok"),
    [
        ("https://github.com/acme/cachex", True),
        ("http://git.example:8080/team/repo.git", True),
        ("https://github.com", True),
        ("https://github.com/acme/\x85x", False),
        ("https://github.com/acme/\x1fx", False),
        ("https://github.com/ac me", False),
        ("https://github.com/\ufeffacme", False),
        ("https:///acme", False),
        ("ftp://github.com/acme", False),
    ],
)
def test_a_repository_url_is_judged_alike_everywhere(url: str, ok: bool) -> None:
    assert bool(re.search(HTTP_URL, url)) is ok
    assert _pydantic_accepts(HTTP_URL, url) is ok


def test_settings_refuse_a_control_character_and_keep_the_old_value(
    client: TestClient, session: Session
) -> None:
    headers = auth(token(session, "uvhttp", scope="upload+admin"))
    assert (
        client.post(
            "/api/v1/results", json=document(metric(value=1.0)), headers=headers
        ).status_code
        == 201
    )
    r = client.put(
        "/api/v1/systems/uvhttp/settings",
        json={"repository": "https://github.com/acme/uvhttp"},
        headers=headers,
    )
    assert r.status_code == 200, r.text
    r = client.put(
        "/api/v1/systems/uvhttp/settings",
        json={"repository": 'http://\U000cf33f/\x86\x85"}D\x12'},
        headers=headers,
    )
    assert r.status_code == 422, r.text
    assert "repository" in r.json()["detail"]
    view = client.get("/api/v1/systems/uvhttp/manifest", headers=headers).json()
    assert view["repository"] == "https://github.com/acme/uvhttp"
