"""One benchmark per host: a PostgreSQL advisory lock that survives a database restart."""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable
from typing import Any

import psycopg


class HostLock:
    """One benchmark per host: a PostgreSQL advisory lock named after the host id.

    The lock lives as long as its session. A database restart ends the session: `acquire`
    and `keep` then connect again and take the lock anew.
    """

    def __init__(self, database_url: str, host_id: str) -> None:
        self._url = database_url
        self._key = f"benchdash-host:{host_id}"
        self._conn: psycopg.Connection[Any] | None = None

    def _try(self) -> bool:
        if self._conn is None or self._conn.closed or self._conn.broken:
            self.close()
            self._conn = psycopg.connect(self._url, autocommit=True, connect_timeout=5)
        got = self._conn.execute(
            "SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", (self._key,)
        ).fetchone()
        return bool(got and got[0])

    def acquire(self, still_wanted: Callable[[], bool], poll_s: float) -> bool:
        """Try until the lock is ours (True) or `still_wanted` says stop (False)."""
        while True:
            try:
                if self._try():
                    return True
            except psycopg.Error as exc:  # the database is restarting: try again
                print(f"host lock: {exc}".strip(), file=sys.stderr)
                self.close()
            if not still_wanted():
                return False
            time.sleep(poll_s)

    def keep(self) -> bool:
        """Whether the lock is still held; a session lost with the database is re-established."""
        try:
            if self._conn is not None and not self._conn.broken:
                self._conn.execute("SELECT 1")
                return True
        except psycopg.Error:
            pass
        try:
            return self._try()
        except psycopg.Error:
            self.close()
            return False

    def close(self) -> None:
        """Closing the session releases the lock."""
        if self._conn is not None:
            with contextlib.suppress(psycopg.Error):
                self._conn.close()
            self._conn = None
