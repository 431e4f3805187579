"""RFC 7807 problem responses for every error, and the body-size limit middleware."""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from benchdash.kit.errors import AppError

PROBLEM = "application/problem+json"


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
    status: int, title: str, detail: str, errors: list[Any] | None = None
) -> JSONResponse:
    """Render a problem document."""
    body = Problem(title=title, status=status, detail=detail, errors=errors or [])
    return JSONResponse(body.model_dump(), status_code=status, media_type=PROBLEM)


def _loc(loc: tuple[Any, ...]) -> list[str | int]:
    return [p for p in loc if p != "body"]


def install_handlers(app: FastAPI) -> None:
    """Route every error through `problem_response`."""

    @app.exception_handler(AppError)
    async def _app_error(_: Request, exc: AppError) -> JSONResponse:
        return problem_response(exc.status_code, exc.title, exc.detail, exc.errors)

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
        return problem_response(exc.status_code, "HTTP error", detail)


class BodyLimitMiddleware:
    """Reject bodies over `max_bytes` with 413 before the endpoint reads them."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._reject(scope, receive, send)
            return
        # Chunked bodies: count as they arrive and fail the read past the limit.
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.max_bytes:
                raise _TooLarge
            return message

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            await self._reject(scope, receive, send)

    async def _reject(self, scope: Scope, receive: Receive, send: Send) -> None:
        mib = self.max_bytes / (1024 * 1024)
        response = problem_response(
            413, "Payload too large", f"the request body exceeds the limit of {mib:g} MiB"
        )
        await response(scope, receive, send)


class _TooLarge(Exception):
    pass
