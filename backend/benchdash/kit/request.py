"""The outermost guard of every request: a request id, URLs PostgreSQL can store, no raw 500.

- Every response carries `X-Request-ID`; error logs name it.
- A path or query string holding NUL (`%00`) or text that is not UTF-8 is refused with 422
  before any endpoint runs.
- An exception no handler took becomes problem+json: 503 with Retry-After when the database
  cannot serve, 500 otherwise (never Starlette's text/plain page).
- With an error log configured (`BENCHDASH_ERROR_LOG`), every 5xx but 503 answered is
  appended to it as a JSON line: `make test` fails when any suite left one there.
"""

from __future__ import annotations

import json
import time
import uuid
from pathlib import Path
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

    def __init__(self, app: ASGIApp, error_log: Path | None = None) -> None:
        self.app = app
        self.error_log = error_log

    def _record(self, status: int, scope: Scope, request_id: str) -> None:
        """Append a 5xx (but 503, the database being away) to the error log, if there is one."""
        if self.error_log is None or status < 500 or status == 503:
            return
        line = {
            "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "status": status,
            "method": scope["method"],
            "path": scope["path"],
            "request_id": request_id,
        }
        with self.error_log.open("a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")

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
                self._record(int(message["status"]), scope, request_id)
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
                self._record(500, scope, request_id)
                raise
            response = unexpected_response(exc, scope["method"], scope["path"], request_id)
            await response(scope, receive, send_with_id)
