"""GET /api/v1/series."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query

from benchdash.deps import ReadAccess, SessionDep
from benchdash.kit.responses import ERRORS
from benchdash.series import service as series_service
from benchdash.series.schemas import SeriesRead

router = APIRouter(prefix="/api/v1", tags=["series"], dependencies=[ReadAccess], responses=ERRORS)


@router.get("/series", response_model=SeriesRead)
def read_series(
    session: SessionDep,
    system: str,
    benchmark: str,
    metric: str,
    branch: str = "main",
    testbed: str | None = None,
    params: Annotated[
        str | None, Query(description="Canonical JSON of the parameters, when several exist")
    ] = None,
    benchmark_id: int | None = None,
    since: Annotated[datetime | None, Query(alias="from")] = None,
    until: Annotated[datetime | None, Query(alias="to")] = None,
    profile: Annotated[str | None, Query(description="Only runs of this profile")] = None,
    max_points: Annotated[int, Query(ge=10, le=20_000)] = 1000,
) -> SeriesRead:
    """Points of one series, oldest first.

    Over `max_points`, the server downsamples with MinMaxLTTB (the `tsdownsample` package),
    which keeps each bucket's extremes so spikes stay visible, and then adds back every
    warn/fail point, so the answer can hold slightly more than `max_points` points.
    Without `testbed`, the testbed of the newest point is used (series never mix testbeds).
    """
    return series_service.read(
        session=session,
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
    )
