"""The profiles of an upload: checked before anything is written (one per benchmark variant
and kind), then stored beside the run's measurements, before its alerts are decided (a step
alert's root cause reads them)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from benchdash.kit.errors import InvalidInput
from benchdash.profiles import service as profile_service
from benchdash.results.schemas import DocumentIn
from benchdash.results.service import Prepared
from benchdash.systems import service as system_service


def check(document: DocumentIn) -> None:
    """Refuse two profiles of one kind for one benchmark variant (no statement)."""
    seen: dict[tuple[str, str, str], int] = {}
    for i, r in enumerate(document.results):
        if r.profile is None:
            continue
        key = (r.benchmark, system_service.params_key(r.parameters), r.profile.kind.value)
        if key in seen:
            raise InvalidInput(
                f"results[{i}] repeats the {r.profile.kind.value} profile of benchmark "
                f"{r.benchmark!r} with the same parameters as results[{seen[key]}]",
                errors=[{"loc": ["results", i, "profile"], "msg": "duplicate profile"}],
            )
        seen[key] = i


def store(*, session: Session, document: DocumentIn, prepared: Prepared) -> None:
    """Store the document's profiles with the ids its series resolved to."""
    benchmarks = {(b.name, b.params_key): b.id for b, _, _ in prepared.items}
    metrics = {m.name: m.id for _, m, _ in prepared.items}
    profiles = [
        profile_service.NewProfile(
            benchmark_id=benchmarks[(r.benchmark, system_service.params_key(r.parameters))],
            metric_id=metrics[r.profile.metric] if r.profile.metric else None,
            profile=r.profile,
        )
        for r in document.results
        if r.profile is not None
    ]
    profile_service.store(session=session, run_id=prepared.run.id, profiles=profiles)
