"""Systems domain services: get-or-create of systems, benchmarks, metrics, branches, testbeds."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from benchdash.audit import service as audit_service
from benchdash.db import utcnow
from benchdash.kit.errors import InvalidInput, NotFound
from benchdash.systems.models import (
    DEFAULT_THRESHOLDS,
    Benchmark,
    Branch,
    Metric,
    System,
    Testbed,
)
from benchdash.systems.schemas import MetricRead

FINGERPRINT_KEYS = ("os", "cpu", "cores", "memory_mb", "compiler", "compiler_version")


def params_key(parameters: dict[str, Any]) -> str:
    """Canonical JSON of a parameter set (sorted keys), the identity of a benchmark variant."""
    return json.dumps(parameters, sort_keys=True, separators=(",", ":"))


def fingerprint(environment: dict[str, Any]) -> str:
    """A stable hash of the environment fields that make results comparable."""
    picked = {k: environment.get(k) for k in FINGERPRINT_KEYS}
    return hashlib.sha256(params_key(picked).encode()).hexdigest()[:16]


def get_by_slug(*, session: Session, slug: str) -> System:
    """The system with this slug, or NotFound."""
    system = session.scalar(select(System).where(System.slug == slug))
    if system is None:
        raise NotFound(f"no system named {slug!r}")
    return system


def list_all(*, session: Session) -> Sequence[System]:
    """Every system, by slug."""
    return session.scalars(select(System).order_by(System.slug)).all()


def ensure_system(*, session: Session, slug: str, **fields: Any) -> System:
    """Get the system, creating it (race-safe) with `fields` if it is new."""
    system = session.scalar(select(System).where(System.slug == slug))
    if system is not None:
        return system
    values = {"slug": slug, "name": fields.pop("name", None) or slug, **fields}
    session.execute(insert(System).values(**values).on_conflict_do_nothing(index_elements=["slug"]))
    return get_by_slug(session=session, slug=slug)


DEFAULT_BRANCHES = ("main", "master", "develop", "trunk")


def default_branch(*, session: Session, system_id: int) -> str:
    """The system's default branch: its oldest of main, master, develop, trunk; else main."""
    name = session.scalar(
        select(Branch.name)
        .where(Branch.system_id == system_id, Branch.name.in_(DEFAULT_BRANCHES))
        .order_by(Branch.created_at, Branch.id)
        .limit(1)
    )
    return name or "main"


def ensure_branch(
    *, session: Session, system_id: int, name: str, base: str | None = None
) -> Branch:
    """Get or create a branch; a new one is judged against `base`, else the default branch."""
    branch = find_branch(session=session, system_id=system_id, name=name)
    if branch is not None:
        return branch
    if base is None and name not in DEFAULT_BRANCHES:
        base = default_branch(session=session, system_id=system_id)
    base = None if base == name else base
    session.execute(
        insert(Branch)
        .values(system_id=system_id, name=name, base_branch=base, created_at=func.now())
        .on_conflict_do_nothing(index_elements=["system_id", "name"])
    )
    branch = find_branch(session=session, system_id=system_id, name=name)
    assert branch is not None
    return branch


def set_base_branch(*, session: Session, branch_id: int, base: str) -> None:
    """Judge a branch against `base` from now on (an upload named its target branch)."""
    session.execute(update(Branch).where(Branch.id == branch_id).values(base_branch=base))


def find_branch(*, session: Session, system_id: int, name: str) -> Branch | None:
    """The branch of that name, if it exists."""
    return session.scalar(select(Branch).where(Branch.system_id == system_id, Branch.name == name))


def ensure_testbed(*, session: Session, name: str | None, environment: dict[str, Any]) -> Testbed:
    """The named testbed, or one named after the environment's fingerprint."""
    fp = fingerprint(environment)
    tb_name = name or f"env-{fp}"
    testbed = session.scalar(select(Testbed).where(Testbed.name == tb_name))
    if testbed is not None:
        return testbed
    session.execute(
        insert(Testbed)
        .values(name=tb_name, fingerprint=fp, environment=environment, created_at=func.now())
        .on_conflict_do_nothing(index_elements=["name"])
    )
    testbed = session.scalar(select(Testbed).where(Testbed.name == tb_name))
    assert testbed is not None
    return testbed


def testbed_name(*, session: Session, testbed_id: int | None) -> str | None:
    """The name of a testbed (None for None)."""
    if testbed_id is None:
        return None
    return session.scalar(select(Testbed.name).where(Testbed.id == testbed_id))


def ensure_benchmarks(
    *, session: Session, system_id: int, variants: Sequence[tuple[str, dict[str, Any]]]
) -> dict[tuple[str, str], Benchmark]:
    """Get or create every (name, parameters) variant; keyed by (name, params_key).

    Known variants cost one SELECT; only missing ones are inserted (race-safe).
    """
    wanted = {(n, params_key(p)): p for n, p in variants}

    def load() -> dict[tuple[str, str], Benchmark]:
        found = session.scalars(
            select(Benchmark).where(
                Benchmark.system_id == system_id,
                Benchmark.name.in_({n for n, _ in wanted}),
            )
        ).all()
        return {(b.name, b.params_key): b for b in found}

    have = load()
    missing = [k for k in wanted if k not in have]
    if missing:
        session.execute(
            insert(Benchmark).on_conflict_do_nothing(
                index_elements=["system_id", "name", "params_key"]
            ),
            [
                {
                    "system_id": system_id,
                    "name": n,
                    "parameters": wanted[(n, k)],
                    "params_key": k,
                    "created_at": utcnow(),
                }
                for n, k in missing
            ],
        )
        have = load()
    return have


def ensure_metrics(
    *, session: Session, system_id: int, declared: dict[str, tuple[str, str]]
) -> dict[str, Metric]:
    """Get or create metrics by name → (unit, direction); a conflicting unit or direction is
    an error.

    Thresholds are never taken from a document: new metrics get the defaults, and the
    manifest or an admin changes them.
    """

    def load() -> dict[str, Metric]:
        found = session.scalars(
            select(Metric).where(Metric.system_id == system_id, Metric.name.in_(declared))
        ).all()
        return {m.name: m for m in found}

    metrics = load()
    missing = [n for n in declared if n not in metrics]
    if missing:
        session.execute(
            insert(Metric).on_conflict_do_nothing(index_elements=["system_id", "name"]),
            [
                {
                    "system_id": system_id,
                    "name": n,
                    "unit": declared[n][0],
                    "direction": declared[n][1],
                    "warn_threshold": DEFAULT_THRESHOLDS.warn,
                    "fail_threshold": DEFAULT_THRESHOLDS.fail,
                }
                for n in missing
            ],
        )
        metrics = load()
    for name, (unit, direction) in declared.items():
        m = metrics[name]
        if (m.unit, m.direction) != (unit, direction):
            raise InvalidInput(
                f"metric {name!r} is stored as {m.unit} ({m.direction}) but the document says "
                f"{unit} ({direction}); use a new metric name or the stored unit and direction"
            )
    return metrics


def metric_read(metric: Metric) -> MetricRead:
    """The wire form of a metric."""
    return MetricRead(
        name=metric.name,
        unit=metric.unit,
        direction=metric.direction,
        warn_threshold=metric.warn_threshold,
        fail_threshold=metric.fail_threshold,
    )


def apply_thresholds(
    *, session: Session, system: System, metric: Metric, warn: float, fail: float, by: str
) -> None:
    """Set a metric's thresholds (percent), with an audit event when they change."""
    old = (metric.warn_threshold, metric.fail_threshold)
    if old == (warn, fail):
        return
    metric.warn_threshold, metric.fail_threshold = warn, fail
    audit_service.record(
        session=session,
        actor=by,
        action="thresholds.set",
        target=f"{system.slug}/{metric.name}",
        detail={"from": {"warn": old[0], "fail": old[1]}, "to": {"warn": warn, "fail": fail}},
    )


def set_thresholds(
    *, session: Session, system: System, metric_name: str, warn: float, fail: float, by: str
) -> Metric:
    """Change a metric's warn/fail thresholds (percent) on an admin's request."""
    metric = session.scalar(
        select(Metric).where(Metric.system_id == system.id, Metric.name == metric_name)
    )
    if metric is None:
        raise NotFound(f"system {system.slug!r} has no metric {metric_name!r}")
    if not 0 < warn <= fail:
        raise InvalidInput("thresholds need 0 < warn ≤ fail")
    apply_thresholds(session=session, system=system, metric=metric, warn=warn, fail=fail, by=by)
    session.flush()
    return metric


def slug_owning(*, session: Session, model: Any, row_id: int, what: str) -> str:
    """The slug of the system a row of `model` (a table with `id` and `system_id`) belongs to,
    or NotFound naming `what` (checked before authorising an action on the row)."""
    slug = session.scalar(
        select(System.slug).join(model, model.system_id == System.id).where(model.id == row_id)
    )
    if slug is None:
        raise NotFound(f"no {what} {row_id}")
    return str(slug)
