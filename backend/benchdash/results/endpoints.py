"""POST /api/v1/results: ingest one benchdash/v1 document."""

from __future__ import annotations

from fastapi import APIRouter, Response, status

from benchdash.auth import service as auth_service
from benchdash.deps import OptionalPrincipal, SessionDep
from benchdash.ingest import service as ingest_service
from benchdash.kit import landed
from benchdash.kit.responses import ERRORS
from benchdash.results.schemas import DocumentIn, IngestResponse

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
    # Completing a queued run (`run.id`) is the agent's work: an upload-only token that could
    # name any queued run would store made-up results in another principal's run.
    scope = "agent" if document.run.id is not None else "upload"
    auth_service.require(principal, scope, document.system)
    answer = ingest_service.store(session=session, document=document)
    if not answer.created:
        response.status_code = status.HTTP_200_OK
    elif answer.run.testbed is not None:
        landed.landed((answer.run.system, answer.run.branch, answer.run.testbed))
    return answer
