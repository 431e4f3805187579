"""backend/README.md's route table is the app's (scripts/route-table makes it): a route added,
moved to another module or described anew without `scripts/route-table --write` fails here."""

from __future__ import annotations

import importlib.machinery
import importlib.util
from pathlib import Path
from types import ModuleType

from benchdash.app import create_app

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "route-table"


def _script() -> ModuleType:
    loader = importlib.machinery.SourceFileLoader("route_table", str(SCRIPT))
    spec = importlib.util.spec_from_loader("route_table", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def test_the_readme_route_table_is_the_apps() -> None:
    script = _script()
    text = script.README.read_text()
    assert script.written(text) == text, "backend/README.md is stale: scripts/route-table --write"


def test_the_table_names_every_route_of_the_openapi_document() -> None:
    listed = {(m, p) for m, p, _, _ in _script().rows()}
    spec = create_app().openapi()["paths"]
    served = {(m.upper(), p) for p, ops in spec.items() for m in ops if m != "parameters"}
    assert served - listed == set()


def test_a_changed_route_is_drift() -> None:
    script = _script()
    text = script.README.read_text()
    assert script.written(text.replace("| GET | `/api/v1/alerts` |", "| GET | `/api/v1/alert` |"))
    changed = text.replace("| GET | `/api/v1/alerts` |", "| GET | `/api/v1/alert` |")
    assert changed != text and script.written(changed) != changed
