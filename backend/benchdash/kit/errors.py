"""Typed errors carrying their HTTP status; rendered as RFC 7807 problem JSON."""

from __future__ import annotations

from typing import Any


class AppError(Exception):
    """Base of every error the API reports on purpose."""

    status_code = 400
    title = "Bad request"

    def __init__(
        self,
        detail: str,
        *,
        status_code: int | None = None,
        errors: list[Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        if status_code is not None:
            self.status_code = status_code
        self.errors = errors or []
        self.headers = headers or {}


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


class TooManyRequests(AppError):
    """The caller must wait before trying again (Retry-After says how long)."""

    status_code = 429
    title = "Too many requests"

    def __init__(self, detail: str, *, retry_after_s: int) -> None:
        super().__init__(detail, headers={"Retry-After": str(max(1, retry_after_s))})


class Busy(AppError):
    """The server is at a limit it keeps on purpose; try again shortly."""

    status_code = 503
    title = "Service unavailable"

    def __init__(self, detail: str, *, retry_after_s: int = 1) -> None:
        super().__init__(detail, headers={"Retry-After": str(max(1, retry_after_s))})
