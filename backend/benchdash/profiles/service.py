"""Profiles on the write side: store a run's profiles (one statement, in the upload's
transaction) and compute the root cause of a step alert from its two runs' profiles."""

from __future__ import annotations

import gzip
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from benchdash.db import utcnow
from benchdash.profiles import diff, folded
from benchdash.profiles.models import Profile
from benchdash.profiles.schemas import ProfileIn, ProfileKind, RootCause

KIND_ORDER = list(ProfileKind)  # instructions (exact) before cpu (sampled)


@dataclass(frozen=True)
class NewProfile:
    """A profile of an upload, with the ids its benchmark variant and metric resolved to."""

    benchmark_id: int
    metric_id: int | None
    profile: ProfileIn


def encode(stacks: folded.Stacks) -> bytes:
    """The stored form: canonical folded text, gzip-compressed (reproducibly: no mtime)."""
    return gzip.compress(folded.render(stacks).encode("utf-8"), compresslevel=6, mtime=0)


def decode(data: bytes) -> folded.Stacks:
    """The stacks of a stored profile."""
    return folded.parse(gzip.decompress(data).decode("utf-8"))


def store(*, session: Session, run_id: int, profiles: Sequence[NewProfile]) -> None:
    """Insert the run's profiles in one statement; one already stored for the same run,
    benchmark and kind stays as it is (a retried upload changes nothing)."""
    if not profiles:
        return
    now = utcnow()
    rows = [
        {
            "run_id": run_id,
            "benchmark_id": p.benchmark_id,
            "metric_id": p.metric_id,
            "kind": p.profile.kind.value,
            "unit": p.profile.unit,
            "total": folded.total(p.profile.parsed),
            "stacks_count": len(p.profile.parsed),
            "data": encode(p.profile.parsed),
            "created_at": now,
        }
        for p in profiles
    ]
    session.execute(
        insert(Profile)
        .values(rows)
        .on_conflict_do_nothing(index_elements=["run_id", "benchmark_id", "kind"])
    )


def root_cause(
    *, session: Session, base_run_id: int, head_run_id: int, benchmark_id: int, metric_id: int
) -> dict[str, Any] | None:
    """The differential profile of a step (last good run → first bad run) as the alert keeps
    it (`RootCause`), or None when the two runs lack a profile of one kind of the benchmark.
    A kind whose head profile explains the alert's metric comes first, then instructions."""
    found = session.scalars(
        select(Profile).where(
            Profile.benchmark_id == benchmark_id, Profile.run_id.in_([base_run_id, head_run_id])
        )
    ).all()
    by = {(p.run_id, p.kind): p for p in found}
    kinds = [k for k in KIND_ORDER if (base_run_id, k) in by and (head_run_id, k) in by]
    if not kinds:
        return None
    kinds.sort(key=lambda k: (by[(head_run_id, k)].metric_id != metric_id, KIND_ORDER.index(k)))
    base, head = by[(base_run_id, kinds[0])], by[(head_run_id, kinds[0])]
    exact = head.kind == ProfileKind.INSTRUCTIONS  # a sampled profile's small moves are noise
    cause = diff.root_cause(
        decode(base.data), decode(head.data), min_pct=0.0 if exact else diff.SAMPLED_MIN_PCT
    )
    return RootCause(
        kind=ProfileKind(head.kind),
        unit=head.unit,
        base_profile_id=base.id,
        head_profile_id=head.id,
        base_total=base.total,
        head_total=head.total,
        **cause,
    ).model_dump(mode="json")
