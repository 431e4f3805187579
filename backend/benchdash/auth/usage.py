"""When tokens were last used, recorded without ever making a request wait on a row.

`note()` only remembers the token id in memory; `flush()` (every `FLUSH_S` from the app's
background loop, and at shutdown) writes `last_used_at` in its own short transaction with
`SKIP LOCKED`, so no request serialises on a shared token row.
"""

from __future__ import annotations

import threading

from sqlalchemy.orm import Session

from benchdash.kit.arrays import typed_text

FLUSH_S = 60.0

_lock = threading.Lock()
_pending: set[int] = set()


def note(token_id: int) -> None:
    """Remember that a token was used just now."""
    with _lock:
        _pending.add(token_id)


def flush(session: Session) -> int:
    """Write `last_used_at = now()` for the tokens used since the last flush; returns how many."""
    with _lock:
        ids = sorted(_pending)
        _pending.clear()
    if not ids:
        return 0
    session.execute(
        typed_text(
            "UPDATE api_token SET last_used_at = now() WHERE id IN ("
            " SELECT id FROM api_token WHERE id = ANY(CAST(:ids AS int[])) FOR UPDATE SKIP LOCKED)"
        ),
        {"ids": ids},
    )
    return len(ids)


def forget() -> None:
    """Drop what was noted and not written yet (tests whose tokens were rolled back)."""
    with _lock:
        _pending.clear()
