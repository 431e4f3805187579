"""The FastAPI application: routers, problem handlers, security headers, body limit, the API
docs page, built UI with SPA fallback."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from benchdash import __version__, apidocs
from benchdash.alerts import endpoints as alert_endpoints
from benchdash.alerts import reruns
from benchdash.auth import endpoints as auth_endpoints
from benchdash.auth import usage
from benchdash.backtest import endpoints as backtest_endpoints
from benchdash.bisect import advance as bisect_advance
from benchdash.bisect import auto as bisect_auto
from benchdash.bisect import endpoints as bisect_endpoints
from benchdash.config import get_settings, proxy_list
from benchdash.db import background, database_url, first_to_take, utcnow
from benchdash.deps import FRESH_COOKIE, FRESH_S
from benchdash.export import endpoints as export_endpoints
from benchdash.health import router as health_router
from benchdash.hooks import endpoints as hook_endpoints
from benchdash.hooks import poll
from benchdash.kit import landed
from benchdash.kit.body import BodyMiddleware
from benchdash.kit.errors import NotFound
from benchdash.kit.fresh import FreshAfterWrite
from benchdash.kit.head import HeadAsGet
from benchdash.kit.headers import SecurityHeaders
from benchdash.kit.problem import install_handlers, problem_response
from benchdash.kit.request import RequestGuard
from benchdash.notify import endpoints as notify_endpoints
from benchdash.notify import worker as notify_worker
from benchdash.oidc import endpoints as oidc_endpoints
from benchdash.openapi_links import BenchdashAPI
from benchdash.profiles import endpoints as profile_endpoints
from benchdash.results import endpoints as result_endpoints
from benchdash.results import partitions, reorder
from benchdash.retention import endpoints as retention_endpoints
from benchdash.retention import job as retention
from benchdash.runs import endpoints as run_endpoints
from benchdash.runs import lifecycle, schedule, wakeups
from benchdash.series import endpoints as series_endpoints
from benchdash.series import queries as series_queries
from benchdash.series import refresh as page_refresh
from benchdash.systems import endpoints as system_endpoints

log = logging.getLogger("benchdash")
ROUTERS = (
    health_router,
    auth_endpoints.router,
    oidc_endpoints.router,
    system_endpoints.router,
    result_endpoints.router,
    run_endpoints.router,
    series_endpoints.router,
    alert_endpoints.router,
    notify_endpoints.router,
    bisect_endpoints.router,
    backtest_endpoints.router,
    profile_endpoints.router,
    hook_endpoints.router,
    export_endpoints.router,
    retention_endpoints.router,
)


def operation_id(route: APIRoute) -> str:
    """Stable operation ids: `{tag}-{function name}`."""
    tag = route.tags[0] if route.tags else "default"
    return f"{tag}-{route.name}"


def allowed_methods(app: FastAPI, path: str) -> list[str]:
    """Every method the API documents at `path` (several routers may share one path)."""
    methods: set[str] = set()
    for template, ops in app.openapi()["paths"].items():
        for method, op in ops.items():
            # an integer path parameter matches digits only: /subscriptions/mine is not a
            # /subscriptions/{subscription_id} (that route would refuse it with 422)
            ints = {
                p["name"]
                for p in op.get("parameters", [])
                if p.get("in") == "path" and p.get("schema", {}).get("type") == "integer"
            }
            pattern = re.escape(template)
            for name in re.findall(r"\{([^}]+)\}", template):
                param = "-?[0-9]+" if name in ints else "[^/]+"
                pattern = pattern.replace(re.escape("{" + name + "}"), param)
            if re.fullmatch(pattern, path):
                methods.add(method.upper())
    if "GET" in methods:
        methods.add("HEAD")
    return sorted(methods)


def _method_not_allowed(app: FastAPI, path: str) -> JSONResponse:
    methods = allowed_methods(app, path)
    undocumented = {app.openapi_url, *apidocs.PAGES}  # GET-only routes outside the document
    if not methods and path.startswith("/api/") and path not in undocumented:
        return problem_response(404, "Not found", f"no API route {path}")
    allow = ", ".join(methods or ["GET", "HEAD"])  # the UI's pages answer GET only
    return problem_response(
        405, "Method not allowed", f"{path} answers {allow} only", headers={"Allow": allow}
    )


def build_file(dist: Path, path: str) -> Path | None:
    """The file of the built UI that `path` names, or None: not a file, outside the build, or a
    name no file system holds (a segment over 255 bytes is ENAMETOOLONG, not a 500)."""
    if not path:
        return None
    try:
        candidate = (dist / path).resolve()
        if candidate.is_file() and dist.resolve() in candidate.parents:
            return candidate
    except (OSError, ValueError):
        pass
    return None


def _mount_ui(app: FastAPI, dist: Path) -> None:
    index = dist / "index.html"
    if (dist / "assets").is_dir():
        app.mount("/assets", StaticFiles(directory=dist / "assets"), name="assets")

    @app.get("/{path:path}", include_in_schema=False, response_model=None)
    def spa(path: str) -> FileResponse | JSONResponse:
        if path.startswith("api/"):
            if allowed_methods(app, "/" + path):
                return _method_not_allowed(app, "/" + path)
            raise NotFound(f"no API route /{path}")
        found = build_file(dist, path)
        if found is not None:
            return FileResponse(found)
        if index.is_file():
            return FileResponse(index)
        raise NotFound(f"the UI is not built in {dist}: run `make -C frontend build`")


def reap_once() -> list[int]:
    """Fail runs whose agent went silent, and runs queued too long for a system with no agent
    online (any replica may do it; rows are locked)."""
    settings = get_settings()
    with background("reaper") as session:
        failed = lifecycle.reap(session=session, timeout_s=settings.heartbeat_timeout_s)
        if settings.no_agent_wait_s > 0:
            failed += lifecycle.reap_unserved(
                session=session, wait_s=settings.no_agent_wait_s, live_s=settings.agent_live_s
            )
        return failed


def schedule_once() -> list[int]:
    """Queue the runs of the manifests' cron schedules that ticked just now."""
    with background("schedule") as session:
        settings = get_settings()
        return schedule.queue_due(
            session=session,
            now=utcnow(),
            grace_s=settings.schedule_grace_s,
            timeout_s=settings.ref_check_timeout_s,
        )


def poll_once() -> list[int]:
    """Ask the polled sources for their branches' heads; queue runs of new heads."""
    with background("poll") as session:
        return poll.poll_due(
            session=session, now=utcnow(), timeout_s=get_settings().ref_check_timeout_s or 10.0
        )


def settle_reruns() -> int:
    """Confirm or dismiss suspected points whose re-runs all ended without a last upload; start
    the bisections of alerts so confirmed; move on bisections whose run ended without upload."""
    settled = 0
    with background("re-runs") as session:
        if first_to_take(session, "re-runs"):  # else another API process is at it
            settled = reruns.settle_pending(session=session)
            bisect_auto.start_for_alerts(session=session, run_ids=None)
    with background("bisections") as session:
        return settled + bisect_advance.advance_pending(session=session)


def ensure_partitions() -> list[str]:
    """Create `measurement`'s partitions for the coming months, then rewrite one closed month
    in series order (any replica may do it; one at a time)."""
    with background("partitions") as session:
        created = partitions.ensure(session=session, now=utcnow())
    with background("reorder") as session:
        reorder.reorder(
            session=session, now=utcnow(), limit=1, max_rows=reorder.AUTO_MAX_ROWS,
            lock_timeout_ms=500,
        )  # fmt: skip
    return created


PAGES = page_refresh.Pending()  # views that got runs, refreshed by the loop below


def refresh_pages() -> int:
    """Refresh the kept page points of the views whose uploads paused (series/refresh.py)."""
    done = 0
    for view in PAGES.take_due():
        try:
            with background("page points") as session:
                system, branch, testbed = view
                done += series_queries.refresh_kept(
                    session=session, system=system, branch=branch, testbed=testbed
                )
        except Exception:  # a cache warm-up: the page reads decimate without it
            log.exception("kept page points of %s not refreshed", "/".join(view))
    return done


def flush_token_usage() -> int:
    """Write the tokens' `last_used_at` in a transaction of its own."""
    with background("token usage") as session:
        return usage.flush(session)


PARTITIONS_S = 3600  # months are created 3 ahead: an hourly look is plenty


async def _every(seconds: float, job: Callable[[], object], name: str) -> None:
    while True:
        await asyncio.sleep(seconds)
        try:
            done = await run_in_threadpool(job)
        except Exception:
            log.exception("%s failed", name)
            continue
        if done and name == "reaper":
            log.warning("failed runs without heartbeat or without an agent: %s", done)


@asynccontextmanager
async def lifespan(_: FastAPI) -> AsyncIterator[None]:
    """Background work while the app serves: the heartbeat reaper, re-runs, cron runs,
    token-usage writes, partitions and retention (hourly looks), the notification worker."""
    settings = get_settings()
    tasks = [asyncio.create_task(_every(usage.FLUSH_S, flush_token_usage, "token usage"))]
    landed.listen(PAGES.mark)
    tasks.append(asyncio.create_task(_every(page_refresh.QUIET_S, refresh_pages, "page points")))
    if settings.reaper_interval_s > 0:
        tasks.append(asyncio.create_task(_every(settings.reaper_interval_s, reap_once, "reaper")))
        tasks.append(
            asyncio.create_task(_every(settings.reaper_interval_s, settle_reruns, "re-runs"))
        )
        tasks.append(asyncio.create_task(_every(PARTITIONS_S, ensure_partitions, "partitions")))
        tasks.append(asyncio.create_task(_every(PARTITIONS_S, retention.daily, "retention")))
        tasks.append(asyncio.create_task(_every(settings.reaper_interval_s, poll_once, "poll")))
        if settings.schedule_grace_s > 0:
            tasks.append(
                asyncio.create_task(_every(settings.reaper_interval_s, schedule_once, "schedule"))
            )
    if settings.notify_worker:  # deliveries run here: any API process may take any of them
        run = notify_worker.run(
            url=database_url(), sessions=partial(background, "notify"), settings=settings
        )
        tasks.append(asyncio.create_task(run))
    yield
    for task in tasks:
        task.cancel()
    await wakeups.stop()  # the LISTEN connection of long-polling claims
    try:
        await run_in_threadpool(flush_token_usage)
    except Exception:
        log.exception("token usage flush at shutdown failed")


def create_app() -> FastAPI:
    """Build the application."""
    settings = get_settings()
    app = BenchdashAPI(
        lifespan=lifespan,
        title="benchdash",
        version=__version__,
        description="Continuous benchmarking: store results, judge regressions, chart trends.",
        docs_url=None,  # benchdash.apidocs: Swagger UI from this origin, no inline script
        redoc_url=None,
        openapi_url="/api/openapi.json",
        generate_unique_id_function=operation_id,
    )
    install_handlers(app)

    @app.exception_handler(405)
    async def _not_allowed(request: Request, _: Exception) -> JSONResponse:
        return _method_not_allowed(app, request.url.path)

    for router in ROUTERS:
        app.include_router(router)
    app.include_router(apidocs.router)
    oidc_endpoints.install(app)  # the sign-in flow's cookie (state, nonce, PKCE verifier)
    app.add_middleware(BodyMiddleware, max_bytes=settings.max_body_bytes)
    app.add_middleware(RequestGuard, error_log=settings.error_log)
    app.add_middleware(HeadAsGet)
    if settings.database_read_url:
        app.add_middleware(FreshAfterWrite, name=FRESH_COOKIE, seconds=FRESH_S)
    app.add_middleware(SecurityHeaders)  # the outermost but one, so every answer has them
    if proxies := proxy_list(settings.trusted_proxies):
        # Outermost: the client address and scheme from X-Forwarded-* (trusted peers only)
        # before anything reads them (throttle, HSTS, Secure cookie, logs).
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=proxies)
    _mount_ui(app, settings.frontend_dist)
    return app
