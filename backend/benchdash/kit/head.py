"""HEAD answered like GET without a body (RFC 9110 9.3.2).

FastAPI registers GET routes for GET only, so `HEAD /` and `HEAD /api/v1/systems` answered 405
while their `Allow` header named HEAD. This middleware runs a HEAD request as a GET and sends
the GET's status and headers (Content-Length included) with an empty body.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class HeadAsGet:
    """ASGI middleware: HEAD runs as GET; the body is dropped, the headers kept."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return
        done = False

        async def send_headers_only(message: Message) -> None:
            nonlocal done
            if done:
                return  # the rest of a streamed body
            if message["type"] == "http.response.body":
                done = True
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, send_headers_only)
