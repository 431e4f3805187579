"""schemathesis hooks of `make test-fuzz` (loaded through SCHEMATHESIS_HOOKS)."""

from __future__ import annotations

from typing import Any

import schemathesis


@schemathesis.check
def problem_json(ctx: Any, response: Any, case: Any) -> None:
    """Every 4xx and 5xx answer is an RFC 7807 problem document; no answer is a 5xx."""
    status = response.status_code
    if status >= 500:
        raise AssertionError(f"server error {status}: {response.text[:300]}")
    if status >= 400:
        kind = response.headers.get("content-type", [""])
        kind = kind[0] if isinstance(kind, list) else kind
        if not kind.startswith("application/problem+json"):
            raise AssertionError(f"{status} answered as {kind!r}, not application/problem+json")
