"""A built UI of our own for the page tests: an index.html, one asset, the API docs' files."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from benchdash.config import get_settings

INDEX = '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head>'


@pytest.fixture(autouse=True)
def ui_dist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point the app (made afterwards by the `client` fixture) at a small built UI."""
    dist = tmp_path / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_text(INDEX + '<body><div id="root"></div></body></html>')
    (dist / "assets" / "app.js").write_text("console.log('app')\n")
    (dist / "swagger-ui").mkdir()
    (dist / "swagger-ui" / "swagger-ui-bundle.js").write_text("window.SwaggerUIBundle = 1\n")
    (dist / "swagger-ui" / "swagger-ui.css").write_text("body { margin: 0 }\n")
    monkeypatch.setenv("BENCHDASH_FRONTEND_DIST", str(dist))
    get_settings.cache_clear()
    yield dist
    get_settings.cache_clear()
