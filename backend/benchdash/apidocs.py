"""The interactive API docs (`/api/docs`): Swagger UI served from this origin, no CDN.

The Swagger UI files come from the pinned npm package `swagger-ui-dist`, which the UI build
copies into `frontend/dist/swagger-ui/` (frontend/vite.config.ts); the SPA fallback serves
them like any file of the build. The page has no inline script: its initializer is a file
too, so the Content-Security-Policy allows scripts from 'self' only (benchdash/kit/headers.py).
"""

from __future__ import annotations

from html import escape

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from benchdash.config import get_settings
from benchdash.kit.errors import NotFound

ASSETS = "/swagger-ui"
BUNDLE = "swagger-ui-bundle.js"
STYLES = "swagger-ui.css"

router = APIRouter(include_in_schema=False)
PAGES = ("/api/docs", "/api/docs/init.js")

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="{assets}/{styles}">
</head>
<body>
<div id="swagger-ui"></div>
<script src="{assets}/{bundle}"></script>
<script src="{init}"></script>
</body>
</html>
"""

# FastAPI's own Swagger UI settings, without the third-party validator badge.
INIT = """window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "/api/openapi.json",
    dom_id: "#swagger-ui",
    layout: "BaseLayout",
    deepLinking: true,
    showExtensions: true,
    showCommonExtensions: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
  });
});
"""


@router.get(PAGES[0], response_class=HTMLResponse)
def read_docs(request: Request) -> HTMLResponse:
    """The Swagger UI page for this API's OpenAPI document."""
    folder = get_settings().frontend_dist / ASSETS.lstrip("/")
    if not (folder / BUNDLE).is_file() or not (folder / STYLES).is_file():
        raise NotFound(
            f"the API docs use Swagger UI from the built UI, which lacks {folder}: "
            "run `make -C frontend build` (the OpenAPI document is at /api/openapi.json)"
        )
    title = escape(f"{request.app.title} API")
    page = PAGE.format(title=title, assets=ASSETS, styles=STYLES, bundle=BUNDLE, init=PAGES[1])
    return HTMLResponse(page)


@router.get(PAGES[1])
def read_docs_initializer() -> Response:
    """The script that starts Swagger UI on the docs page."""
    return Response(INIT, media_type="text/javascript")
