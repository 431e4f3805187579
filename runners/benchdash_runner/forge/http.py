"""A small JSON client for a forge's REST API, with errors a CI log reader understands."""

from __future__ import annotations

from typing import Any

import httpx

PAGE_SIZE = 100
MAX_PAGES = 50


class ForgeError(Exception):
    """The forge refused or could not be reached; the message says which call and why."""


class Api:
    """JSON calls against one API root with fixed headers (auth, accept)."""

    def __init__(self, *, name: str, root: str, headers: dict[str, str], timeout: float) -> None:
        self.name = name
        self.root = root.rstrip("/")
        self._http = httpx.Client(headers=headers, timeout=timeout)

    def __enter__(self) -> Api:
        return self

    def __exit__(self, *exc: object) -> None:
        self._http.close()

    def call(self, method: str, path: str, body: Any = None, **params: Any) -> Any:
        """Send one request; the decoded JSON answer, or ForgeError naming the call."""
        where = f"{method} {path}"
        try:
            r = self._http.request(method, self.root + path, json=body, params=params or None)
        except httpx.HTTPError as e:
            raise ForgeError(f"{self.name} API unreachable on {where}: {e}") from e
        if r.status_code >= 400:
            raise ForgeError(f"{self.name} API said {r.status_code} on {where}: {_why(r)}")
        try:
            return r.json() if r.content else None
        except ValueError as e:
            raise ForgeError(f"{self.name} API answered {where} with non-JSON") from e

    def pages(self, path: str, **params: Any) -> list[Any]:
        """Every item of a paginated list (page / per_page, as both forges take them)."""
        items: list[Any] = []
        for page in range(1, MAX_PAGES + 1):
            got = self.call("GET", path, per_page=PAGE_SIZE, page=page, **params)
            if not isinstance(got, list):
                raise ForgeError(f"{self.name} API answered GET {path} with no list")
            items += got
            if len(got) < PAGE_SIZE:
                break
        return items


def _why(r: httpx.Response) -> str:
    try:
        data = r.json()
    except ValueError:
        return r.text[:200].strip() or r.reason_phrase
    if isinstance(data, dict):
        return str(data.get("message") or data.get("error") or data)[:300]
    return str(data)[:300]
