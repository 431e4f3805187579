"""Runs landing: ingest says which system, branch and testbed got a new run; whoever wired a
listener at startup (the app: the series pages' kept points) hears it.

Listeners run in the uploading request's thread and must only take note (no I/O): the
upload's transaction commits after the endpoint returns.
"""

from __future__ import annotations

from collections.abc import Callable

View = tuple[str, str, str]  # system slug, branch name, testbed name
_listeners: list[Callable[[View], None]] = []


def listen(listener: Callable[[View], None]) -> None:
    """Call `listener` with every landed run's view (once per listener)."""
    if listener not in _listeners:
        _listeners.append(listener)


def landed(view: View) -> None:
    """A run of `view` was stored."""
    for listener in _listeners:
        listener(view)
