"""Liveness and readiness."""

from __future__ import annotations

from alembic.config import Config
from alembic.script import ScriptDirectory
from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy import text

from benchdash.config import REPO_ROOT
from benchdash.deps import SessionDep
from benchdash.kit.problem import PROBLEM, RETRY_AFTER_S, Problem, problem_response

router = APIRouter(tags=["health"])


def alembic_head() -> str | None:
    """The newest migration revision shipped with this code."""
    cfg = Config(str(REPO_ROOT / "alembic.ini"))
    return ScriptDirectory.from_config(cfg).get_current_head()


@router.get("/healthz")
def read_health() -> dict[str, str]:
    """The process is up."""
    return {"status": "ok"}


NOT_READY = {
    "model": Problem,
    "content": {PROBLEM: {}},
    "description": "Not ready: the database does not answer, or its schema is not at head",
}


def _not_ready(detail: str) -> JSONResponse:
    return problem_response(
        503, "Service unavailable", detail, headers={"Retry-After": str(RETRY_AFTER_S)}
    )


@router.get("/readyz", responses={503: NOT_READY})
def read_readiness(session: SessionDep) -> JSONResponse:
    """The database answers and its schema is at the newest migration."""
    head = alembic_head()
    try:
        current = session.execute(text("SELECT version_num FROM alembic_version")).scalar()
    except Exception as exc:
        return _not_ready(f"the database does not answer: {type(exc).__name__}")
    if current != head:
        return _not_ready(f"migrating: the schema is at {current}, this code expects {head}")
    return JSONResponse({"status": "ready", "schema": current})
