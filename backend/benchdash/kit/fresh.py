"""Read your own writes with a read replica: a successful write sets a short-lived cookie, and
a client carrying it reads from the primary (`deps.read_session`) until the replica has
surely replayed what it wrote."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

SAFE = frozenset({"GET", "HEAD", "OPTIONS"})


class FreshAfterWrite:
    """ASGI middleware: `name=1; Max-Age=seconds` on every successful unsafe API request."""

    def __init__(self, app: ASGIApp, *, name: str, seconds: int) -> None:
        self.app = app
        self.cookie = f"{name}=1; Max-Age={seconds}; Path=/api; HttpOnly; SameSite=Lax".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in SAFE:
            await self.app(scope, receive, send)
            return

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] < 400:
                headers = [*message.get("headers", []), (b"set-cookie", self.cookie)]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_cookie)
