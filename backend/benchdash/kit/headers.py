"""Security headers on every answer: the UI's pages, its assets, the API, its docs, errors.

One policy for the whole origin, since the UI, the API docs and the API share it:

- `script-src 'self'`: the built UI has no inline script (Vite emits `<script src>` only) and
  the API docs page loads Swagger UI and its initializer as files from this origin.
- `style-src 'self'`: style sheets only from this origin; no `<style>` element and no
  `style="…"` attribute in markup. React, Recharts and Swagger UI set their inline styles
  through the CSSOM (`element.style`), which CSP does not govern, so no 'unsafe-inline' is
  needed; frontend/e2e/specs/csp.spec.ts (and every e2e spec through its page fixture) fails
  on any violation, so a library that starts writing style attributes is caught.
- `img-src 'self' data:`: the favicon and Swagger UI's icons are `data:` images.
- `frame-ancestors 'none'` (and `X-Frame-Options: DENY` for browsers that predate it): no
  page of ours inside another site's frame (clickjacking).
- `Strict-Transport-Security` on every answer to a request that arrived over HTTPS, directly or
  from a trusted proxy (BENCHDASH_TRUSTED_PROXIES; the outer middleware sets the scheme): the
  browser then never tries plain HTTP for this host again. Never over HTTP (RFC 6797 §7.2).
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "worker-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
CONTENT_SECURITY_POLICY = "; ".join(f"{name} {value}" for name, value in POLICY.items())

HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    # Full URLs within this origin, nothing (not even the origin) to other sites: a dashboard's
    # URLs name systems, branches and commits.
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
HSTS = (b"strict-transport-security", b"max-age=31536000")  # one year; no includeSubDomains
_NAMES = {name for name, _ in HEADERS} | {HSTS[0]}


class SecurityHeaders:
    """ASGI middleware: the headers above on every HTTP response (replacing any the app set)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _NAMES]
                extra = [HSTS] if scope.get("scheme") == "https" else []
                message = {**message, "headers": [*kept, *HEADERS, *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)
