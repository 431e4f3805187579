"""The outermost guard of every request: a request id, URLs PostgreSQL can store, no raw 500.

- Every response carries `X-Request-ID`; error logs name it.
- A path or query string holding NUL (`%00`) or text that is not UTF-8 is refused with 422
  before any endpoint runs.
- An exception no handler took becomes problem+json: 503 with Retry-After when the database
  cannot serve, 500 otherwise (never Starlette's text/plain page).
"""

from __future__ import annotations

import uuid
from urllib.parse import unquote_to_bytes

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from benchdash.kit.problem import problem_response, unexpected_response


def _bad_url(scope: Scope) -> str | None:
    raw = [scope.get("raw_path") or scope["path"].encode(), scope.get("query_string", b"")]
    for part in raw:
        if isinstance(part, str):
            part = part.encode()
        decoded = unquote_to_bytes(part.replace(b"+", b" "))
        if b"\x00" in decoded:
            return "the URL must not contain NUL (%00) characters"
        try:
            decoded.decode("utf-8")
        except UnicodeDecodeError:
            return "the URL must be valid UTF-8 once percent-decoded"
    return None


class RequestGuard:
    """ASGI middleware: request id, URL checks, problem+json for anything unexpected."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = uuid.uuid4().hex[:12]
        scope.setdefault("state", {})["request_id"] = request_id
        started = False

        async def send_with_id(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers", []))
                headers.append((b"x-request-id", request_id.encode()))
                message = {**message, "headers": headers}
            await send(message)

        bad = _bad_url(scope)
        if bad is not None:
            await problem_response(422, "Invalid input", bad)(scope, receive, send_with_id)
            return
        try:
            await self.app(scope, receive, send_with_id)
        except Exception as exc:
            if started:
                raise
            response = unexpected_response(exc, scope["method"], scope["path"], request_id)
            await response(scope, receive, send_with_id)
