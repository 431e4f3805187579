"""schemathesis hooks of `make test-fuzz` (loaded through SCHEMATHESIS_HOOKS)."""

from __future__ import annotations

import os
from typing import Any

import schemathesis


def _record(line: str) -> None:
    """Append a 5xx to the file run.py counts (BENCHDASH_FUZZ_5XX_LOG), when it is set."""
    path = os.environ.get("BENCHDASH_FUZZ_5XX_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(line.replace("\n", " ") + "\n")


@schemathesis.check
def problem_json(ctx: Any, response: Any, case: Any) -> None:
    """Every 4xx and 5xx answer is an RFC 7807 problem document; no answer is a 5xx."""
    status = response.status_code
    if status >= 500:
        where = getattr(case, "formatted_path", None) or case.path
        _record(f"{status} {case.method} {where}: {response.text[:200]}")
        raise AssertionError(f"server error {status}: {response.text[:300]}")
    if status >= 400:
        kind = response.headers.get("content-type", [""])
        kind = kind[0] if isinstance(kind, list) else kind
        if not kind.startswith("application/problem+json"):
            raise AssertionError(f"{status} answered as {kind!r}, not application/problem+json")
