"""Profiles: a run's profiles, one profile (tree and top functions, or folded text), and the
differential profile of two."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query
from fastapi.responses import PlainTextResponse

from benchdash.deps import ReadAccess, ReadSessionDep
from benchdash.kit.errors import InvalidInput
from benchdash.kit.responses import ERRORS
from benchdash.kit.validation import INT4_MAX, RunIdPath
from benchdash.profiles import queries
from benchdash.profiles.schemas import ProfileDetail, ProfileDiff, ProfileKind, ProfileSummary

router = APIRouter(prefix="/api/v1", tags=["profiles"], responses=ERRORS, dependencies=[ReadAccess])
BenchmarkIdQuery = Annotated[
    int | None, Query(ge=1, le=INT4_MAX, description="The benchmark (variant) id.")
]
_FOLDED: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/plain": {"schema": {"type": "string"}}}, "description": "The profile"}
}


@router.get("/runs/{run_id}/profiles", response_model=list[ProfileSummary])
def read_run_profiles(run_id: RunIdPath, session: ReadSessionDep) -> list[ProfileSummary]:
    """The run's profiles (one per benchmark variant and kind)."""
    return queries.list_for_run(session=session, run_id=run_id)


@router.get("/profiles/diff", response_model=ProfileDiff)
def read_profile_diff(
    session: ReadSessionDep,
    base: Annotated[int | None, Query(ge=1, le=INT4_MAX, description="Base profile id.")] = None,
    head: Annotated[int | None, Query(ge=1, le=INT4_MAX, description="Head profile id.")] = None,
    base_run: Annotated[int | None, Query(ge=1, le=INT4_MAX, description="Base run id.")] = None,
    head_run: Annotated[int | None, Query(ge=1, le=INT4_MAX, description="Head run id.")] = None,
    benchmark_id: BenchmarkIdQuery = None,
    kind: ProfileKind | None = None,
) -> ProfileDiff:
    """The differential profile of `base` and `head` (profile ids), or of one benchmark's
    profiles in two runs (`base_run`, `head_run`, `benchmark_id`, optionally `kind`)."""
    by_ids, by_runs = (base, head), (base_run, head_run, benchmark_id)
    if all(v is not None for v in by_ids) and all(v is None for v in (*by_runs, kind)):
        assert base is not None and head is not None
        return queries.compare(session=session, base_id=base, head_id=head)
    if all(v is not None for v in by_runs) and all(v is None for v in by_ids):
        assert base_run is not None and head_run is not None and benchmark_id is not None
        return queries.compare_runs(
            session=session,
            base_run=base_run,
            head_run=head_run,
            benchmark_id=benchmark_id,
            kind=kind,
        )
    raise InvalidInput(
        "give base and head (profile ids), or base_run, head_run and benchmark_id "
        "(and optionally kind), not a mix"
    )


@router.get("/profiles/{profile_id}", response_model=ProfileDetail, responses=_FOLDED)
def read_profile(
    session: ReadSessionDep,
    profile_id: Annotated[int, Path(ge=1, le=INT4_MAX, description="A profile id.")],
    format: Annotated[
        Literal["json", "folded"],
        Query(description="json: tree and top functions; folded: the folded stacks as text."),
    ] = "json",
) -> ProfileDetail | PlainTextResponse:
    """One profile: its call tree and top 50 functions by self cost, or its folded stacks."""
    if format == "folded":
        text = queries.folded_text(session=session, profile_id=profile_id)
        return PlainTextResponse(text)
    return queries.detail(session=session, profile_id=profile_id)
