"""The application as `benchdash-server serve` runs it: one per worker process, its startup heap
frozen out of the garbage collector's full collections.

Importing and building the app leaves ~180,000 objects tracked by the collector (FastAPI,
pydantic, SQLAlchemy, scipy, procrastinate). Every request promotes its own short-lived rows
and dicts into the oldest generation while they are alive, so every few hundred reads (more
often with bigger series) CPython runs a full collection that walks that whole startup heap:
~100–300 ms on this 2-core machine, inside whichever request triggered it. That was the
p99 tail of series reads. The startup heap lives as long as the process, so it is moved to the
permanent generation (`gc.freeze`); full collections then only walk what requests made.
"""

from __future__ import annotations

import gc

from fastapi import FastAPI

from benchdash.app import create_app


def freeze_startup_heap() -> int:
    """Collect once, then exempt every object alive now from future collections; returns how
    many objects were frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


def create_served_app() -> FastAPI:
    """The app `serve` hands to uvicorn (factory): built, then its startup heap frozen."""
    app = create_app()
    freeze_startup_heap()
    return app
