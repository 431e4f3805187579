"""Series: a series' points (GET /api/v1/series), a system page's series in one answer
(GET /api/v1/series/batch), its trend image
(GET /api/v1/series/image.{svg,png}), and accepted distribution changes."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Path, Query, Response

from benchdash.alerts import changes
from benchdash.alerts.schemas import ChangeCreate, ChangeRead
from benchdash.auth import service as auth_service
from benchdash.config import get_settings
from benchdash.deps import OptionalPrincipal, ReadAccess, ReadSessionDep, SessionDep
from benchdash.kit.caching import cached_image, json_or_not_modified
from benchdash.kit.responses import ERRORS
from benchdash.kit.validation import INT4_MAX, NO_NUL, ChangeIdPath, TextQuery
from benchdash.series import chart
from benchdash.series import queries as series_queries
from benchdash.series import service as series_service
from benchdash.series.read_models import SeriesBatch
from benchdash.series.schemas import SeriesRead

router = APIRouter(prefix="/api/v1", tags=["series"], responses=ERRORS)
IMAGE_POINTS = chart.WIDTH_PX  # about one point per pixel column: more would not show
_IMAGES: dict[str, Any] = {
    media: {"schema": {"type": "string"}} for media in chart.MEDIA_TYPES.values()
}


@router.get(
    "/series",
    dependencies=[ReadAccess],
    response_model=SeriesRead,
    responses={304: {"description": "Not modified (the If-None-Match ETag still holds)"}},
)
def read_series(
    session: ReadSessionDep,
    system: Annotated[str, Query(max_length=64, pattern=NO_NUL)],
    benchmark: Annotated[str, Query(max_length=300, pattern=NO_NUL)],
    metric: Annotated[str, Query(max_length=120, pattern=NO_NUL)],
    branch: Annotated[str, Query(max_length=200, pattern=NO_NUL)] = "main",
    testbed: TextQuery = None,
    params: Annotated[
        str | None,
        Query(
            max_length=4000,
            pattern=NO_NUL,
            description="Canonical JSON of the parameters, when several exist",
        ),
    ] = None,
    benchmark_id: Annotated[int | None, Query(ge=1, le=INT4_MAX)] = None,
    since: Annotated[datetime | None, Query(alias="from")] = None,
    until: Annotated[datetime | None, Query(alias="to")] = None,
    profile: Annotated[
        str | None, Query(max_length=40, pattern=NO_NUL, description="Only this profile")
    ] = None,
    max_points: Annotated[int, Query(ge=10, le=20_000)] = 1000,
    form: Annotated[
        Literal["points", "columns"],
        Query(description="points: one object a point; columns: one array a field (compact)"),
    ] = "points",
    if_none_match: Annotated[str | None, Header(max_length=200)] = None,
) -> Response:
    """Points of one series, oldest first.

    Over `max_points`, the server downsamples with MinMaxLTTB (the `tsdownsample` package),
    which keeps each bucket's extremes so spikes stay visible, and then adds back every
    warn/fail point, so the answer can hold slightly more than `max_points` points.
    Without `testbed`, the testbed of the newest point is used (series never mix testbeds).
    The answer has an ETag; send it back in If-None-Match to get 304 while nothing changed.
    """
    query = series_service.SeriesQuery(
        system=system,
        benchmark=benchmark,
        metric=metric,
        branch=branch,
        testbed=testbed,
        params=params,
        benchmark_id=benchmark_id,
        since=since,
        until=until,
        profile=profile,
        max_points=max_points,
        form=form,
    )
    answer = series_service.read(session=session, query=query, if_none_match=if_none_match)
    return json_or_not_modified(answer.body, answer.etag)


@router.get(
    "/series/batch",
    dependencies=[ReadAccess],
    response_model=SeriesBatch,
    responses={304: {"description": "Not modified (the If-None-Match ETag still holds)"}},
)
def read_series_batch(
    session: ReadSessionDep,
    system: Annotated[str, Query(max_length=64, pattern=NO_NUL)],
    branch: Annotated[str, Query(max_length=200, pattern=NO_NUL)] = "main",
    testbed: TextQuery = None,
    profile: Annotated[
        str | None, Query(max_length=40, pattern=NO_NUL, description="Only this profile")
    ] = None,
    since: Annotated[datetime | None, Query(alias="from")] = None,
    until: Annotated[datetime | None, Query(alias="to")] = None,
    max_points: Annotated[int, Query(ge=10, le=1000, description="Per series")] = 200,
    limit: Annotated[int, Query(ge=1, le=1000, description="Series at most")] = 500,
    if_none_match: Annotated[str | None, Header(max_length=200)] = None,
) -> Response:
    """Every series of a system's branch on one testbed, in one answer (a system page).

    Without `testbed` and `profile`, the view (testbed × profile) whose newest run is the most
    recent is shown; with a testbed alone, every profile. `views` lists them all with counts.
    Series come worst first (`state`: regressed, suspected, changed, steady), then by benchmark,
    parameters and metric. Points are columns (one array per field, oldest first); `run` indexes
    `runs`, shared by every series. Over `max_points`, a series keeps each bucket's lowest and
    highest point, every warn/fail point and its newest point. The answer has an ETag.
    """
    query = series_queries.BatchQuery(
        system=system,
        branch=branch,
        testbed=testbed,
        profile=profile,
        since=since,
        until=until,
        max_points=max_points,
        limit=limit,
    )
    answer = series_queries.read_batch(session=session, query=query, if_none_match=if_none_match)
    return json_or_not_modified(answer.body, answer.etag)


@router.get(
    "/series/image.{fmt}",
    dependencies=[ReadAccess],
    response_class=Response,
    responses={
        200: {"content": _IMAGES, "description": "The trend image"},
        304: {"description": "Not modified (the If-None-Match ETag still holds)"},
    },
)
def read_series_image(
    session: ReadSessionDep,
    fmt: Annotated[chart.ImageFormat, Path(description="svg or png")],
    system: Annotated[str, Query(max_length=64, pattern=NO_NUL)],
    benchmark: Annotated[str, Query(max_length=300, pattern=NO_NUL)],
    metric: Annotated[str, Query(max_length=120, pattern=NO_NUL)],
    branch: Annotated[str, Query(max_length=200, pattern=NO_NUL)] = "main",
    testbed: TextQuery = None,
    params: Annotated[
        str | None,
        Query(max_length=4000, pattern=NO_NUL, description="Canonical JSON of the parameters"),
    ] = None,
    if_none_match: Annotated[str | None, Header(max_length=200)] = None,
) -> Response:
    """One series' trend as a 640 × 240 image: its points, the baseline they were judged
    against, and its confirmed steps and accepted changes.

    The query is the one of GET /series. Cached for five minutes; the ETag changes with the
    series' data (If-None-Match gets 304).
    """
    query = series_service.SeriesQuery(
        system=system,
        benchmark=benchmark,
        metric=metric,
        branch=branch,
        testbed=testbed,
        params=params,
        max_points=IMAGE_POINTS,
    )
    found = series_service.read_data(
        session=session,
        query=query,
        if_none_match=if_none_match,
        representation=f"{fmt}-v{chart.VERSION}",
    )
    image = None if found.data is None else chart.render(found.data, fmt)
    media = chart.MEDIA_TYPES[fmt]
    return cached_image(image, media, found.etag, public=get_settings().public_read)


@router.post(
    "/series/changes",
    response_model=ChangeRead,
    status_code=201,
    name="accept_change",
)
def accept_change(
    body: ChangeCreate, session: SessionDep, principal: OptionalPrincipal
) -> ChangeRead:
    """Accept a step as expected (trigger scope): the baseline restarts at that run."""
    who = auth_service.require(principal, "trigger", body.system)
    change = changes.accept(
        session=session,
        system=body.system,
        benchmark=body.benchmark,
        metric=body.metric,
        params=body.params,
        run_id=body.run_id,
        note=body.note,
        by=who.name,
    )
    return ChangeRead(
        id=change.id,
        run_id=change.run_id,
        note=change.note,
        created_by=change.created_by,
        created_at=change.created_at,
    )


@router.delete("/series/changes/{change_id}", status_code=204)
def withdraw_change(
    change_id: ChangeIdPath, session: SessionDep, principal: OptionalPrincipal
) -> None:
    """Take an accepted change back (trigger scope)."""
    system = changes.system_of(session=session, change_id=change_id)
    who = auth_service.require(principal, "trigger", system)
    changes.withdraw(session=session, change_id=change_id, by=who.name)
