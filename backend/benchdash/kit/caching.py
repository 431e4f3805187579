"""Conditional GETs for embeddable images: an ETag, a short shared cache lifetime, 304s."""

from __future__ import annotations

from fastapi import Response

MAX_AGE_S = 300  # five minutes: a README badge follows a new alert soon, proxies stay useful


def etag_matches(if_none_match: str | None, etag: str) -> bool:
    """Whether an If-None-Match header names `etag`: a list, weak tags (W/) and * included
    (RFC 9110 13.1.2 uses the weak comparison for GET)."""
    if not if_none_match:
        return False
    strong = etag.removeprefix("W/")
    tags = (t.strip().removeprefix("W/") for t in if_none_match.split(","))
    return any(t == "*" or t == strong for t in tags)


def cache_headers(etag: str, *, public: bool) -> dict[str, str]:
    """ETag and Cache-Control; shared caches may keep the answer only when reads are public."""
    scope = "public" if public else "private"
    return {"ETag": etag, "Cache-Control": f"{scope}, max-age={MAX_AGE_S}"}


def cached_image(body: bytes | None, media_type: str, etag: str, *, public: bool) -> Response:
    """The image with its cache headers, or 304 Not Modified when `body` is None."""
    headers = cache_headers(etag, public=public)
    if body is None:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=media_type, headers=headers)


def json_or_not_modified(body: bytes | None, etag: str) -> Response:
    """A JSON body with its ETag (revalidated on every use), or 304 when `body` is None (the
    client's If-None-Match still holds)."""
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    if body is None:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)
