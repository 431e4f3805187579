"""Environment changes on a testbed: the compiler, kernel or CPU a run saw differs from the
previous run's on the same system, branch and testbed ("rustc 1.95 → 1.96").

A testbed keeps its name across such changes (runners name it after the host), so the history
continues; the change is shown on the charts and the run page, and a maintainer decides whether
the baseline restarts there (accepting it as an expected change, POST /series/changes).
"""

from __future__ import annotations

import functools
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field
from sqlalchemy import TextClause, text
from sqlalchemy.orm import Session

from benchdash.runs.states import RunStatus

# What makes results comparable, in the order a change is told; `compiler_version` is told
# with its compiler ("rustc 1.95 → 1.96").
COMPARED = ("compiler", "compiler_version", "os", "cpu", "cores", "memory_mb")
_LABELS = {"os": "kernel", "cpu": "CPU", "cores": "cores", "memory_mb": "memory (MB)"}


class EnvironmentDiff(BaseModel):
    """One field of the environment that changed."""

    key: str
    before: Any
    after: Any


class EnvironmentChange(BaseModel):
    """A run whose environment differs from the previous run's on its testbed and branch."""

    run_id: int
    previous_run_id: int
    t: datetime = Field(description="When the run started.")
    text: str = Field(description='The change in words, e.g. "rustc 1.95 → 1.96".')
    diffs: list[EnvironmentDiff]


def _shown(value: Any) -> str:
    return "?" if value is None or value == "" else str(value)


def diff(before: dict[str, Any] | None, after: dict[str, Any] | None) -> list[EnvironmentDiff]:
    """The compared fields that differ (a field absent on both sides is no change)."""
    old, new = before or {}, after or {}
    return [
        EnvironmentDiff(key=k, before=old.get(k), after=new.get(k))
        for k in COMPARED
        if old.get(k) != new.get(k)
    ]


def describe(before: dict[str, Any] | None, after: dict[str, Any] | None) -> str:
    """The differences in words: "rustc 1.95 → 1.96; kernel Linux 6.1 → Linux 6.5"."""
    old, new = before or {}, after or {}
    parts: list[str] = []
    keys = {d.key for d in diff(old, new)}
    if keys & {"compiler", "compiler_version"}:
        parts.append(
            f"{_shown(old.get('compiler'))} {_shown(old.get('compiler_version'))} → "
            f"{_shown(new.get('compiler'))} {_shown(new.get('compiler_version'))}"
            if "compiler" in keys
            else f"{_shown(new.get('compiler'))} {_shown(old.get('compiler_version'))} → "
            f"{_shown(new.get('compiler_version'))}"
        )
    for key in COMPARED[2:]:
        if key in keys:
            parts.append(f"{_LABELS[key]} {_shown(old.get(key))} → {_shown(new.get(key))}")
    return "; ".join(parts)


# Each completed, accepted run of a testbed and branch beside the previous one's environment
# (ix_run_series_order serves the scan); only those that differ are kept. A range starts at
# the last run before it (the previous environment of its first run): a chart of a month
# reads that month's runs, not the testbed's years.
_RUNS = f"""r.system_id = :system AND r.branch_id = :branch AND r.testbed_id = :testbed
          AND r.status = '{RunStatus.COMPLETED}' AND r.accepted"""
_BOUNDS = {
    "since": f"""r.started_at >= coalesce((SELECT max(r.started_at) FROM run r
          WHERE {_RUNS} AND r.started_at < :since), :since)""",
    "until": "r.started_at <= :until",
}
_CHANGES = f"""SELECT id, started_at, environment, prev_id, prev_env FROM (
        SELECT r.id, r.started_at, r.environment,
            lag(r.id) OVER w AS prev_id, lag(r.environment) OVER w AS prev_env
        FROM run r
        WHERE {_RUNS} {{bounds}}
        WINDOW w AS (ORDER BY r.started_at, r.id)
    ) s
    WHERE prev_id IS NOT NULL AND {{picked}}
    ORDER BY started_at, id"""
_COMPARED_SQL = " OR ".join(
    f"(environment -> '{k}') IS DISTINCT FROM (prev_env -> '{k}')" for k in COMPARED
)
_OF_RUN = text(_CHANGES.replace("{picked}", "id = :run").replace("{bounds}", ""))


@functools.cache
def _on_testbed(given: frozenset[str]) -> TextClause:
    bounds = "".join(f" AND {_BOUNDS[k]}" for k in sorted(given))
    return text(_CHANGES.replace("{picked}", f"({_COMPARED_SQL})").replace("{bounds}", bounds))


def _change(row: Any) -> EnvironmentChange | None:
    run_id, t, env, prev_id, prev_env = row
    diffs = diff(prev_env, env)
    if not diffs:
        return None
    return EnvironmentChange(
        run_id=run_id, previous_run_id=prev_id, t=t, text=describe(prev_env, env), diffs=diffs
    )


def on_testbed(
    *,
    session: Session,
    system_id: int,
    branch_id: int,
    testbed_id: int,
    since: datetime | None = None,
    until: datetime | None = None,
) -> list[EnvironmentChange]:
    """Every environment change on a testbed and branch (from `since`, to `until`), oldest
    first."""
    given = {k: v for k, v in (("since", since), ("until", until)) if v is not None}
    rows = session.execute(
        _on_testbed(frozenset(given)),
        {"system": system_id, "branch": branch_id, "testbed": testbed_id, **given},
    ).all()
    return [
        c
        for c in map(_change, rows)
        if c is not None and (since is None or c.t >= since) and (until is None or c.t <= until)
    ]


def of_run(
    *, session: Session, system_id: int, branch_id: int, testbed_id: int | None, run_id: int
) -> EnvironmentChange | None:
    """How a run's environment differs from the previous run's on its testbed and branch."""
    if testbed_id is None:
        return None
    row = session.execute(
        _OF_RUN,
        {"system": system_id, "branch": branch_id, "testbed": testbed_id, "run": run_id},
    ).first()
    return None if row is None else _change(row)


def marks(
    *,
    session: Session,
    ids: tuple[int, int, int | None] | Any,
    since: datetime | None,
    until: datetime | None,
) -> list[dict[str, Any]]:
    """The changes of a series' (system, branch, testbed) within a range, as chart marks."""
    system_id, branch_id, testbed_id = ids
    if testbed_id is None:
        return []
    found = on_testbed(
        session=session,
        system_id=system_id,
        branch_id=branch_id,
        testbed_id=testbed_id,
        since=since,
        until=until,
    )
    return [c.model_dump() for c in found]
