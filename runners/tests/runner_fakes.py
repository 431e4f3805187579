"""A stand-in for the benchdash API, and verdicts as it returns them (shared by tests)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Reply:
    """One scripted answer; `body=None` means "echo a 201 built from the request"."""

    status: int = 201
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    stores: bool = False  # the run is stored although this (error) reply is sent


@dataclass
class FakeApi:
    """Records every request and answers from `replies` (then from `verdicts`)."""

    url: str
    replies: list[Reply] = field(default_factory=list)
    verdicts: list[dict[str, Any]] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    seen_ids: dict[str, int] = field(default_factory=dict)
    refuse_gzip: bool = False  # answer 415 to gzip bodies, as a server without gzip support

    def answer(self, doc: dict[str, Any]) -> Reply:
        ext = doc["run"]["external_id"]
        if self.replies:
            reply = self.replies.pop(0)
            if reply.stores:
                self.seen_ids.setdefault(ext, len(self.seen_ids) + 1)
            if reply.body is not None:
                return reply
        created = ext not in self.seen_ids
        run_id = self.seen_ids.setdefault(ext, len(self.seen_ids) + 1)
        run = {
            "id": run_id,
            "system": doc["system"],
            "external_id": ext,
            "commit": doc["run"].get("commit"),
            "branch": doc["run"].get("branch"),
            "testbed": doc["run"].get("testbed", "fp-test"),
            "status": "completed",
            "url": f"/runs/{run_id}",
        }
        body = {"created": created, "run": run, "verdicts": self.verdicts}
        return Reply(201 if created else 200, body)


def verdict(
    level: str, benchmark: str = "rounds", metric: str = "requests_per_second", **kw: Any
) -> dict[str, Any]:
    """A verdict as the API returns it."""
    v: dict[str, Any] = {
        "benchmark": benchmark,
        "parameters": {"threads": 2},
        "metric": metric,
        "unit": "req/s",
        "direction": "higher_is_better",
        "value": 900.0,
        "baseline": 1000.0,
        "change_pct": 10.0,
        "p_value": 0.01,
        "level": level,
        "warn_threshold": 5.0,
        "fail_threshold": 10.0,
        "explanation": f"{level} because the test says so",
        "series_url": f"/systems/uvhttp?benchmark={benchmark}&metric={metric}&branch=main",
    }
    v.update(kw)
    return v
