"""Error responses declared on routes so the generated client knows them."""

from typing import Any

from benchdash.kit.problem import Problem

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": Problem, "content": {"application/problem+json": {}}, "description": text}
    for code, text in (
        (400, "Bad request"),
        (401, "Missing or invalid credentials"),
        (403, "Not allowed"),
        (404, "Not found"),
        (409, "Conflict"),
        (413, "Body too large"),
        (422, "Invalid input"),
    )
}

THROTTLED: dict[int | str, dict[str, Any]] = {
    code: {"model": Problem, "content": {"application/problem+json": {}}, "description": text}
    for code, text in (
        (429, "Too many attempts: wait Retry-After seconds"),
        (503, "Too busy checking passwords: wait Retry-After seconds"),
    )
}
