"""The FastAPI application: routers, problem handlers, body limit, built UI with SPA fallback."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, JSONResponse
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool

from benchdash import __version__
from benchdash.alerts.router import router as alerts_router
from benchdash.auth.router import router as auth_router
from benchdash.config import get_settings
from benchdash.db import transaction
from benchdash.health import router as health_router
from benchdash.kit.errors import NotFound
from benchdash.kit.problem import BodyLimitMiddleware, install_handlers
from benchdash.results.router import router as results_router
from benchdash.runs import lifecycle
from benchdash.runs.router import router as runs_router
from benchdash.series.router import router as series_router
from benchdash.systems.router import router as systems_router

log = logging.getLogger("benchdash")
ROUTERS = (
    health_router,
    auth_router,
    systems_router,
    results_router,
    runs_router,
    series_router,
    alerts_router,
)


def operation_id(route: APIRoute) -> str:
    """Stable operation ids: `{tag}-{function name}`."""
    tag = route.tags[0] if route.tags else "default"
    return f"{tag}-{route.name}"


def _mount_ui(app: FastAPI, dist: Path) -> None:
    index = dist / "index.html"
    if (dist / "assets").is_dir():
        app.mount("/assets", StaticFiles(directory=dist / "assets"), name="assets")

    @app.get("/{path:path}", include_in_schema=False, response_model=None)
    def spa(path: str) -> FileResponse | JSONResponse:
        if path.startswith("api/"):
            raise NotFound(f"no API route /{path}")
        candidate = (dist / path).resolve()
        if path and candidate.is_file() and dist.resolve() in candidate.parents:
            return FileResponse(candidate)
        if index.is_file():
            return FileResponse(index)
        return JSONResponse(
            {"detail": "the UI is not built: run `make ui` (or `npm --prefix frontend run build`)"},
            status_code=404,
        )


def reap_once() -> list[int]:
    """Fail runs whose agent went silent (any replica may do it; rows are locked)."""
    with transaction() as session:
        return lifecycle.reap(session=session, timeout_s=get_settings().heartbeat_timeout_s)


@asynccontextmanager
async def lifespan(_: FastAPI) -> AsyncIterator[None]:
    """Run the heartbeat reaper in the background while the app serves."""
    interval = get_settings().reaper_interval_s

    async def loop() -> None:
        while True:
            await asyncio.sleep(interval)
            try:
                reaped = await run_in_threadpool(reap_once)
            except Exception:
                log.exception("reaper failed")
                continue
            if reaped:
                log.warning("failed runs without heartbeat: %s", reaped)

    task = asyncio.create_task(loop()) if interval > 0 else None
    yield
    if task is not None:
        task.cancel()


def create_app() -> FastAPI:
    """Build the application."""
    settings = get_settings()
    app = FastAPI(
        lifespan=lifespan,
        title="benchdash",
        version=__version__,
        description="Continuous benchmarking: store results, judge regressions, chart trends.",
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/api/openapi.json",
        generate_unique_id_function=operation_id,
    )
    install_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    _mount_ui(app, settings.frontend_dist)
    return app
