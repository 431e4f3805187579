"""What every history reader returns: one `benchdash/v1` document a run, with where it came
from (file and entry or line), so an error can name it."""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from typing import Any

from benchdash_runner.adapters._base import AdapterError

MAX_EXTERNAL_ID = 200


class HistoryError(AdapterError):
    """A history file that cannot be brought in; the message names the file and the entry."""


@dataclass(frozen=True)
class Options:
    """What the command line adds to every run of a history."""

    system: str | None
    branch: str | None = None
    testbed: str | None = None
    historical: bool = False


@dataclass
class Entry:
    """One run to import: its document, where it is in the source, and its sort key."""

    where: str
    document: dict[str, Any]
    order: tuple[str, int]  # (started_at in UTC ISO form, position in the source)


def external_id(*parts: str) -> str:
    """A stable idempotency key from `parts`; hashed when it would be too long."""
    key = "-".join(parts)
    if len(key) <= MAX_EXTERNAL_ID:
        return key
    digest = hashlib.sha256(key.encode()).hexdigest()[:24]
    return f"{key[: MAX_EXTERNAL_ID - 26]}--{digest}"


def from_ms(ms: float) -> str:
    """Milliseconds since the epoch as RFC 3339 UTC (what asv and github-action-benchmark
    write)."""
    at = dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC).isoformat(timespec="milliseconds")
    return at.replace("+00:00", "Z")


def utc_key(iso: str) -> str:
    """A sort key of an RFC 3339 time: the same instant in UTC, to the microsecond."""
    at = dt.datetime.fromisoformat(iso.replace("Z", "+00:00"))
    if at.tzinfo is None:
        at = at.replace(tzinfo=dt.UTC)
    return at.astimezone(dt.UTC).isoformat(timespec="microseconds")


def document(
    *, opts: Options, system: str, run: dict[str, Any], results: list[dict[str, Any]],
    configuration: dict[str, Any] | None = None, environment: dict[str, Any] | None = None,
) -> dict[str, Any]:  # fmt: skip
    """A document of `system` with the command line's branch, testbed and historical flag."""
    meta = {"trigger": "ci", **{k: v for k, v in run.items() if v is not None}}
    if opts.branch:
        meta["branch"] = opts.branch
    if opts.testbed:
        meta["testbed"] = opts.testbed
    if opts.historical:
        meta["historical"] = True
    doc: dict[str, Any] = {"schema": "benchdash/v1", "system": system, "run": meta}
    doc["environment"] = environment or {}
    doc["configuration"] = configuration or {}
    doc["results"] = results
    return doc
