"""Typed errors carrying their HTTP status; rendered as RFC 7807 problem JSON."""

from __future__ import annotations

from typing import Any


class AppError(Exception):
    """Base of every error the API reports on purpose."""

    status_code = 400
    title = "Bad request"

    def __init__(
        self, detail: str, *, status_code: int | None = None, errors: list[Any] | None = None
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        if status_code is not None:
            self.status_code = status_code
        self.errors = errors or []


class NotFound(AppError):
    """The thing named in the URL or body does not exist."""

    status_code = 404
    title = "Not found"


class Unauthorized(AppError):
    """No valid credentials."""

    status_code = 401
    title = "Unauthorized"


class Forbidden(AppError):
    """Credentials valid, but not for this."""

    status_code = 403
    title = "Forbidden"


class Conflict(AppError):
    """The request contradicts stored state."""

    status_code = 409
    title = "Conflict"


class InvalidInput(AppError):
    """The payload is well-formed JSON but its content is not acceptable."""

    status_code = 422
    title = "Invalid input"


class PayloadTooLarge(AppError):
    """The body exceeds the configured limit."""

    status_code = 413
    title = "Payload too large"
