"""Kept page points refreshed after runs land, so a page read after a run finds them ready.

A system page keeps each series' points (`chart_cache`); a run that lands changes every series
of its view, and the page's next read would decimate them all again (half a second for 300
series of 500 runs). Ingest says which system, branch and testbed got a run (`kit.landed`);
the process that took the upload refreshes the kept views of that testbed (the pages someone
has read: a view nobody read has no kept rows) once uploads to it pause for QUIET_S, or after
MAX_DELAY_S of a steady stream. A refresh is a page read (`queries.refresh_kept`): it
decimates the series whose stamp moved and keeps them. A refresh that fails (the database
away) is logged and the page reads decimate as before: nothing depends on it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from benchdash.kit.landed import View

QUIET_S = 2.0  # uploads of a CI job come in bursts: refresh once it is over
MAX_DELAY_S = 30.0  # ... or this long after the first, under a steady stream


class Pending:
    """Views that got runs, each due once its uploads pause (thread-safe: requests mark, the
    background loop takes)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._first: dict[View, float] = {}
        self._last: dict[View, float] = {}

    def mark(self, view: View) -> None:
        """A run of `view` landed now."""
        now = self._clock()
        with self._lock:
            self._first.setdefault(view, now)
            self._last[view] = now

    def take_due(self) -> list[View]:
        """The views whose uploads paused QUIET_S, or that waited MAX_DELAY_S; forgotten here."""
        now = self._clock()
        with self._lock:
            due = [
                v
                for v, last in self._last.items()
                if now - last >= QUIET_S or now - self._first[v] >= MAX_DELAY_S
            ]
            for v in due:
                del self._first[v], self._last[v]
        return sorted(due)
