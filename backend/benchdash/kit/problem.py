"""RFC 7807 problem responses for every error, 5xx included.

Expected errors (`AppError`, validation, HTTP errors) keep their status. A database that is
down, a pool that is exhausted, or a statement or lock that timed out answer 503 with
Retry-After; anything else is a 500 that names the request id also written to the log.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

import psycopg
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy import exc as sa_exc
from starlette.exceptions import HTTPException as StarletteHTTPException

from benchdash.kit.errors import AppError

PROBLEM = "application/problem+json"
RETRY_AFTER_S = 5
log = logging.getLogger("benchdash")


class FieldError(BaseModel):
    """One invalid field: where it is and what is wrong."""

    loc: list[str | int]
    msg: str


class Problem(BaseModel):
    """An RFC 7807 problem document."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    errors: list[FieldError] = []


def problem_response(
    status: int,
    title: str,
    detail: str,
    errors: list[Any] | None = None,
    headers: Mapping[str, str] | None = None,
) -> JSONResponse:
    """Render a problem document."""
    body = Problem(title=title, status=status, detail=detail, errors=errors or [])
    return JSONResponse(
        body.model_dump(), status_code=status, media_type=PROBLEM, headers=dict(headers or {})
    )


def _unavailable(exc: BaseException) -> str | None:
    """Why the database cannot serve now, or None when `exc` is something else."""
    if isinstance(exc, sa_exc.TimeoutError):
        return "every database connection is busy"
    if isinstance(exc, sa_exc.DBAPIError):
        orig = exc.orig
        if isinstance(orig, psycopg.errors.QueryCanceled):
            return "a database statement took too long"
        if isinstance(orig, psycopg.errors.LockNotAvailable):
            return "the data is locked by another request"
        if exc.connection_invalidated or isinstance(orig, psycopg.OperationalError):
            return "the database is not reachable"
    return None


def _loc(loc: tuple[Any, ...]) -> list[str | int]:
    return [p for p in loc if p != "body"]


def install_handlers(app: FastAPI) -> None:
    """Route every error through `problem_response`."""

    @app.exception_handler(AppError)
    async def _app_error(_: Request, exc: AppError) -> JSONResponse:
        headers = exc.headers or None
        return problem_response(exc.status_code, exc.title, exc.detail, exc.errors, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [{"loc": _loc(tuple(e["loc"])), "msg": e["msg"]} for e in exc.errors()]
        parts = [".".join(str(p) for p in e["loc"]) + ": " + e["msg"] for e in errors]
        detail = "; ".join(p.lstrip(": ") for p in parts[:5])
        if len(parts) > 5:
            detail += f"; and {len(parts) - 5} more"
        return problem_response(422, "Invalid input", detail, errors)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        detail = exc.detail if isinstance(exc.detail, str) else json.dumps(exc.detail)
        return problem_response(exc.status_code, "HTTP error", detail, headers=exc.headers)


def unexpected_response(
    exc: BaseException, method: str, path: str, request_id: str
) -> JSONResponse:
    """503 with Retry-After when the database cannot serve, else a logged 500."""
    why = _unavailable(exc)
    if why is not None:
        log.warning("503 %s %s [%s]: %s", method, path, request_id, exc)
        return problem_response(
            503,
            "Service unavailable",
            f"{why}; try again shortly (request {request_id})",
            headers={"Retry-After": str(RETRY_AFTER_S)},
        )
    log.error("500 %s %s [%s]", method, path, request_id, exc_info=exc)
    return problem_response(
        500,
        "Internal server error",
        f"an unexpected error happened; it is logged as request {request_id}",
    )
