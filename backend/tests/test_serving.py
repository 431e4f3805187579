"""`benchdash-server serve` runs each worker's app with its startup heap frozen, so a full
garbage collection no longer walks the ~180,000 objects of the imports (the read tail)."""

from __future__ import annotations

import argparse
import gc
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI

from benchdash import cli, serving, startup


@pytest.fixture
def unfrozen() -> Iterator[None]:
    """Give the test process its collectable heap back afterwards."""
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_the_served_app_leaves_the_startup_heap_out_of_collections(unfrozen: None) -> None:
    tracked_before = len(gc.get_objects())
    app = serving.create_served_app()
    assert isinstance(app, FastAPI)
    assert gc.get_freeze_count() >= tracked_before // 2  # the imports' heap is frozen
    # What a full collection still walks: only what was made after the freeze.
    assert len(gc.get_objects()) < gc.get_freeze_count() // 10


def test_serve_hands_uvicorn_the_frozen_factory(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    calls: list[tuple[Any, dict[str, Any]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: calls.append((a, k)))
    monkeypatch.setattr(startup, "bootstrap", lambda: None)  # cmd_serve imports it when it runs
    args = argparse.Namespace(no_migrate=True, host="127.0.0.1", port=8123, workers=2, wait=0)
    assert cli.cmd_serve(args) == 0
    (target,), options = calls[0]
    assert target == "benchdash.serving:create_served_app"
    assert options["factory"] is True and options["workers"] == 2
