"""Request bodies: a size limit that always answers 413, and gzip-compressed uploads.

The limit applies to what the endpoint would read: the body as sent, and the inflated body
of a `Content-Encoding: gzip` request (inflated step by step, so a decompression bomb costs
at most the limit). Bodies without a length (chunked) are read up to the limit first.
"""

from __future__ import annotations

import zlib

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from benchdash.kit.problem import problem_response


class _TooLarge(Exception):
    pass


class _BadGzip(Exception):
    pass


def inflate(data: bytes, limit: int) -> bytes:
    """Gunzip `data`, refusing output past `limit` bytes (raises _TooLarge / _BadGzip)."""
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = inflater.decompress(data, limit + 1)
        if len(out) > limit or inflater.unconsumed_tail:
            raise _TooLarge
        out += inflater.flush()
    except zlib.error as exc:
        raise _BadGzip(str(exc)) from None
    if len(out) > limit:
        raise _TooLarge
    if not inflater.eof:
        raise _BadGzip("the gzip stream is truncated")
    return out


class BodyMiddleware:
    """413 for bodies over `max_bytes` (sent or inflated); gzip bodies inflated for the app."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        gzipped = headers.get(b"content-encoding", b"").strip().lower() == b"gzip"
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._problem(413, scope, receive, send)
            return
        if declared is not None and not gzipped:
            await self.app(scope, receive, send)  # the endpoint reads what was declared
            return
        try:
            body = await self._read(receive)
            if gzipped:
                body = inflate(body, self.max_bytes)
        except _TooLarge:
            await self._problem(413, scope, receive, send)
            return
        except _BadGzip as exc:
            await self._problem(400, scope, receive, send, f"the gzip body is invalid: {exc}")
            return
        kept = [
            (k, v) for k, v in scope["headers"] if k not in (b"content-length", b"content-encoding")
        ]
        scope = {**scope, "headers": [*kept, (b"content-length", str(len(body)).encode())]}
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _read(self, receive: Receive) -> bytes:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                raise _TooLarge
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)

    async def _problem(
        self, status: int, scope: Scope, receive: Receive, send: Send, detail: str | None = None
    ) -> None:
        mib = self.max_bytes / (1024 * 1024)
        if status == 413:
            response = problem_response(
                413,
                "Payload too large",
                f"the request body exceeds the limit of {mib:g} MiB (after decompression)",
            )
        else:
            response = problem_response(status, "Bad request", detail or "bad body")
        await response(scope, receive, send)
