"""Liveness and readiness."""

from __future__ import annotations

from alembic.config import Config
from alembic.script import ScriptDirectory
from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy import text

from benchdash.config import REPO_ROOT
from benchdash.deps import SessionDep

router = APIRouter(tags=["health"])


def alembic_head() -> str | None:
    """The newest migration revision shipped with this code."""
    cfg = Config(str(REPO_ROOT / "alembic.ini"))
    return ScriptDirectory.from_config(cfg).get_current_head()


@router.get("/healthz")
def read_health() -> dict[str, str]:
    """The process is up."""
    return {"status": "ok"}


@router.get("/readyz", responses={503: {"description": "Not ready"}})
def read_readiness(session: SessionDep) -> JSONResponse:
    """The database answers and its schema is at the newest migration."""
    head = alembic_head()
    try:
        current = session.execute(text("SELECT version_num FROM alembic_version")).scalar()
    except Exception as exc:
        return JSONResponse(
            {"status": "unavailable", "detail": f"database: {type(exc).__name__}"}, status_code=503
        )
    if current != head:
        return JSONResponse(
            {"status": "migrating", "detail": f"schema at {current}, code expects {head}"},
            status_code=503,
        )
    return JSONResponse({"status": "ready", "schema": current})
