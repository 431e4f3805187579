"""POST /api/v1/results: ingest one benchdash/v1 document."""

from __future__ import annotations

from fastapi import APIRouter, Response, status

from benchdash.auth import service as auth_service
from benchdash.deps import OptionalPrincipal, SessionDep
from benchdash.kit.responses import ERRORS
from benchdash.results import service as result_service
from benchdash.results.read import verdicts_for_run
from benchdash.results.schemas import DocumentIn, IngestResponse
from benchdash.runs import service as run_service

router = APIRouter(prefix="/api/v1/results", tags=["results"])


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=IngestResponse,
    responses={200: {"model": IngestResponse, "description": "Already stored"}, **ERRORS},
)
def create_result(
    document: DocumentIn, session: SessionDep, principal: OptionalPrincipal, response: Response
) -> IngestResponse:
    """Store a result document (one transaction) and return the run with its verdicts."""
    auth_service.require(principal, "upload", document.system)
    outcome = result_service.ingest(session=session, document=document)
    if not outcome.created:
        response.status_code = status.HTTP_200_OK
    summary = run_service.summary(session=session, run_id=outcome.run.id)
    verdicts = verdicts_for_run(
        session=session, run_id=outcome.run.id, system=summary.system, branch=summary.branch
    )
    return IngestResponse(created=outcome.created, run=summary, verdicts=verdicts)
