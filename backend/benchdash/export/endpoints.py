"""History out: GET /api/v1/export (JSON lines, streamed) and GET /api/v1/series/csv."""

from __future__ import annotations

import csv
import io
import re
import sys
from collections.abc import Iterator
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Response
from fastapi.responses import StreamingResponse

from benchdash.db import SessionMaker, session_maker
from benchdash.deps import ReadAccess, ReadSessionDep
from benchdash.export import queries as export_queries
from benchdash.kit.responses import ERRORS
from benchdash.kit.validation import INT4_MAX, NO_NUL, TextQuery
from benchdash.series import service as series_service
from benchdash.systems import service as system_service

router = APIRouter(prefix="/api/v1", responses=ERRORS)
CHUNK = 64 << 10
CSV_FIELDS = ("run_id", "commit", "started_at", "value", "min", "max", "stddev", "n",
              "level", "stage", "baseline", "change_pct", "p_value")  # fmt: skip
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def _chunks(new_session: SessionMaker, system: str | None) -> Iterator[bytes]:
    """The export's lines in chunks of about CHUNK bytes, read in a transaction of its own."""
    with new_session() as session:
        buffer = bytearray()
        for line in export_queries.stream(session, system):
            buffer += line
            if len(buffer) >= CHUNK:
                yield bytes(buffer)
                buffer.clear()
        yield bytes(buffer)


@router.get(
    "/export",
    tags=["export"],
    dependencies=[ReadAccess],
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
            "description": f"JSON lines, format {export_queries.FORMAT} (README: History out)",
        }
    },
)
def read_export(
    session: ReadSessionDep,
    new_session: Annotated[SessionMaker, Depends(session_maker)],
    system: Annotated[
        str | None, Query(max_length=64, pattern=NO_NUL, description="Only this system")
    ] = None,
) -> StreamingResponse:
    """The history of one system, or of every one, as JSON lines that `benchdash import`
    brings back: a header, one line per run in ingest order (its benchdash/v1 document and its
    verdicts), the accepted changes, the alerts, an end line with the counts (any reader)."""
    if system is not None:
        system_service.get_by_slug(session=session, slug=system)  # 404 before streaming
    name = f"benchdash-{system or 'all'}.jsonl"
    return StreamingResponse(
        _chunks(new_session, system),
        media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.get(
    "/series/csv",
    tags=["series"],
    dependencies=[ReadAccess],
    response_class=Response,
    responses={
        200: {"content": {"text/csv": {"schema": {"type": "string"}}}, "description": "CSV"}
    },
)
def read_series_csv(
    session: ReadSessionDep,
    system: Annotated[str, Query(max_length=64, pattern=NO_NUL)],
    benchmark: Annotated[str, Query(max_length=300, pattern=NO_NUL)],
    metric: Annotated[str, Query(max_length=120, pattern=NO_NUL)],
    branch: Annotated[str, Query(max_length=200, pattern=NO_NUL)] = "main",
    testbed: TextQuery = None,
    params: Annotated[
        str | None,
        Query(max_length=4000, pattern=NO_NUL, description="Canonical JSON of the parameters"),
    ] = None,
    benchmark_id: Annotated[int | None, Query(ge=1, le=INT4_MAX)] = None,
    since: Annotated[datetime | None, Query(alias="from")] = None,
    until: Annotated[datetime | None, Query(alias="to")] = None,
    profile: Annotated[
        str | None, Query(max_length=40, pattern=NO_NUL, description="Only this profile")
    ] = None,
) -> Response:
    """Every point of one series (never downsampled), oldest first, as CSV: the query of
    GET /series, one row a point (run id, commit, time, value, min, max, stddev, n, level,
    stage, baseline, change %, p-value)."""
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
        max_points=sys.maxsize,
    )
    found = series_service.read_data(session=session, query=query)
    data: dict[str, Any] = found.data or {}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for p in data.get("points") or []:
        row = [p["t"].isoformat() if k == "started_at" else p.get(k) for k in CSV_FIELDS]
        writer.writerow(row)
    name = _UNSAFE.sub("_", f"{system}-{data.get('benchmark', benchmark)}-{metric}-{branch}")
    return Response(
        out.getvalue(),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}.csv"'},
    )
