"""The slow path of an upload that names something new, and the checks against what is stored.

`create_missing` creates, race-safely (INSERT … ON CONFLICT DO NOTHING), the system, branch,
testbed, metrics, benchmarks and series a document names for the first time.
"""

from __future__ import annotations

import dataclasses

from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from benchdash.kit.errors import InvalidInput
from benchdash.results.models import Series
from benchdash.results.resolve import BranchRow, MetricRow
from benchdash.results.schemas import DocumentIn, ResultIn
from benchdash.systems import bounds
from benchdash.systems import service as system_service


def ensure_series(
    *,
    session: Session,
    system_id: int,
    branch_id: int,
    testbed_id: int,
    pairs: list[tuple[int, int]],
) -> None:
    """Create the series of (benchmark, metric) pairs on a branch and testbed that are new."""
    session.execute(
        insert(Series).on_conflict_do_nothing(),
        [
            {
                "system_id": system_id,
                "benchmark_id": b,
                "metric_id": m,
                "branch_id": branch_id,
                "testbed_id": testbed_id,
            }
            for b, m in pairs
        ],
    )


def create_missing(
    session: Session,
    document: DocumentIn,
    branch: str,
    testbed: str,
    declared: dict[str, tuple[str, str]],
) -> None:
    """The slow path of a document that names something new: create it, race-safely."""
    system = system_service.ensure_system(session=session, slug=document.system)
    br = system_service.ensure_branch(
        session=session, system_id=system.id, name=branch, base=document.run.base_branch
    )
    tb = system_service.ensure_testbed(
        session=session, name=testbed, environment=document.environment
    )
    metrics = system_service.ensure_metrics(session=session, system_id=system.id, declared=declared)
    benchmarks = system_service.ensure_benchmarks(
        session=session,
        system_id=system.id,
        variants=[(r.benchmark, dict(r.parameters)) for r in document.results],
    )
    pairs = {
        (
            benchmarks[(r.benchmark, system_service.params_key(dict(r.parameters)))].id,
            metrics[m.name].id,
        )
        for r in document.results
        for m in r.metrics
    }
    ensure_series(
        session=session, system_id=system.id, branch_id=br.id, testbed_id=tb.id, pairs=sorted(pairs)
    )


def check_units(declared: dict[str, tuple[str, str]], stored: dict[str, MetricRow]) -> None:
    """422 when a document gives a stored metric another unit or direction."""
    for name, (unit, direction) in declared.items():
        m = stored[name]
        if (m.unit, m.direction) != (unit, direction):
            raise InvalidInput(
                f"metric {name!r} is stored as {m.unit} ({m.direction}) but the document says "
                f"{unit} ({direction}); use a new metric name or the stored unit and direction"
            )


def check_bounds(results: list[ResultIn], stored: dict[str, MetricRow]) -> None:
    """422 naming the result and metric when a value or sample lies outside its metric's range
    (declared bounds; a `%` unit is 0–100 unless declared otherwise)."""
    errors: list[dict[str, object]] = []
    for i, r in enumerate(results):
        for j, m in enumerate(r.metrics):
            row = stored[m.name]
            low, high = bounds.effective(row.unit, row.min_value, row.max_value)
            given = ([m.value] if m.value is not None else []) + m.samples
            bad = [v for v in given if bounds.outside(v, low, high)]
            if bad:
                errors.append(
                    {
                        "loc": [
                            "results",
                            i,
                            "metrics",
                            j,
                            "value" if m.value in bad else "samples",
                        ],
                        "msg": f"results[{i}].metrics[{j}] ({r.benchmark} {m.name}): {bad[0]:g} "
                        f"{row.unit} is outside its range; values must be "
                        f"{bounds.describe(low, high)}",
                    }
                )
    if errors:
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise InvalidInput(f"{errors[0]['msg']}{more}", errors=errors)


def base_branch(session: Session, branch: BranchRow, base: str | None) -> BranchRow:
    """The branch as judged: an upload naming another target branch (`run.base_branch`) moves
    the branch's base there for this and later uploads."""
    if not base or base in (branch.base_branch, branch.name):
        return branch
    system_service.set_base_branch(session=session, branch_id=branch.id, base=base)
    return dataclasses.replace(branch, base_branch=base)
