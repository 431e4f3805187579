"""Profiles on the read side: a run's profiles, one profile's tree and top functions, its
folded text, and the differential profile of two (by ids, or by two runs and a benchmark)."""

from __future__ import annotations

import gzip
from typing import Any

from sqlalchemy import Select, select
from sqlalchemy.orm import Session

from benchdash.kit.errors import InvalidInput, NotFound
from benchdash.profiles import diff, tree
from benchdash.profiles.models import Profile
from benchdash.profiles.schemas import ProfileDetail, ProfileDiff, ProfileKind, ProfileSummary
from benchdash.profiles.service import KIND_ORDER, decode
from benchdash.runs.models import Run
from benchdash.systems.models import Benchmark, Metric


def _summaries() -> Select[Any]:
    return (
        select(Profile, Benchmark.name, Benchmark.parameters, Metric.name)
        .join(Benchmark, Benchmark.id == Profile.benchmark_id)
        .outerjoin(Metric, Metric.id == Profile.metric_id)
    )


def _summary(
    p: Profile, benchmark: str, parameters: dict[str, Any], metric: str | None
) -> ProfileSummary:
    return ProfileSummary(
        id=p.id,
        run_id=p.run_id,
        benchmark=benchmark,
        parameters=parameters,
        benchmark_id=p.benchmark_id,
        kind=ProfileKind(p.kind),
        unit=p.unit,
        metric=metric,
        total=p.total,
        stacks_count=p.stacks_count,
    )


def list_for_run(*, session: Session, run_id: int) -> list[ProfileSummary]:
    """The run's profiles, by benchmark and kind; NotFound for an unknown run."""
    if session.get(Run, run_id) is None:
        raise NotFound(f"no run {run_id}")
    rows = session.execute(
        _summaries()
        .where(Profile.run_id == run_id)
        .order_by(Benchmark.name, Benchmark.params_key, Profile.kind)
    ).all()
    return [_summary(*row) for row in rows]


def _get(session: Session, profile_id: int) -> tuple[ProfileSummary, bytes]:
    row = session.execute(_summaries().where(Profile.id == profile_id)).first()
    if row is None:
        raise NotFound(f"no profile {profile_id}")
    return _summary(*row), row[0].data


def folded_text(*, session: Session, profile_id: int) -> str:
    """The profile's folded stacks (canonical: sorted, one line per distinct stack)."""
    _, data = _get(session, profile_id)
    return gzip.decompress(data).decode("utf-8")


def detail(*, session: Session, profile_id: int) -> ProfileDetail:
    """The profile with its call tree and top functions by self cost."""
    summary, data = _get(session, profile_id)
    stacks = decode(data)
    return ProfileDetail(
        **summary.model_dump(), tree=tree.build(stacks), functions=diff.functions(stacks)
    )


def compare(*, session: Session, base_id: int, head_id: int) -> ProfileDiff:
    """The differential profile of two profiles of one kind and unit (else InvalidInput)."""
    base, base_data = _get(session, base_id)
    head, head_data = _get(session, head_id)
    if (base.kind, base.unit) != (head.kind, head.unit):
        raise InvalidInput(
            f"profiles {base_id} ({base.kind.value}, {base.unit}) and {head_id} "
            f"({head.kind.value}, {head.unit}) count different things: a diff needs one kind "
            "and unit"
        )
    b, h = decode(base_data), decode(head_data)
    functions = diff.diff_functions(b, h)
    return ProfileDiff(
        base=base,
        head=head,
        tree=tree.build_diff(b, h),
        functions=functions,
        elsewhere_pct=diff.elsewhere_pct(base.total, head.total, functions),
    )


def compare_runs(
    *,
    session: Session,
    base_run: int,
    head_run: int,
    benchmark_id: int,
    kind: ProfileKind | None = None,
) -> ProfileDiff:
    """The differential profile of a benchmark between two runs: the kind both runs have
    (`kind`, else instructions before cpu); NotFound naming the run that has none."""
    rows = session.execute(
        select(Profile.id, Profile.run_id, Profile.kind).where(
            Profile.benchmark_id == benchmark_id, Profile.run_id.in_([base_run, head_run])
        )
    ).all()
    by = {(run_id, k): pid for pid, run_id, k in rows}
    kinds = [kind] if kind is not None else KIND_ORDER
    what = f"{kind.value} profile" if kind is not None else "profile"
    for run_id in (base_run, head_run):
        if not any((run_id, k) in by for k in kinds):
            raise NotFound(f"run {run_id} has no {what} of benchmark {benchmark_id}")
    shared = [k for k in kinds if (base_run, k) in by and (head_run, k) in by]
    if not shared:
        raise NotFound(
            f"runs {base_run} and {head_run} have no profile of one kind of benchmark "
            f"{benchmark_id}"
        )
    k = shared[0]
    return compare(session=session, base_id=by[(base_run, k)], head_id=by[(head_run, k)])
