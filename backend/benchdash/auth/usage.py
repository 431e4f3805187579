"""When tokens were last used, recorded without ever making a request wait on a row.

`note()` only remembers the token id in memory; `flush()` (every `FLUSH_S` from the app's
background loop, at shutdown, and before the admin's token list is read) writes `last_used_at`
with `SKIP LOCKED`, so no request serialises on a shared token row. A token whose row was
locked stays noted for the next flush: a use is never dropped, and "Last used" stays current
(it said "never" for a minute after a burst of uses, and for good after a skipped flush).
"""

from __future__ import annotations

import threading

from sqlalchemy.orm import Session

from benchdash.kit.arrays import typed_text

FLUSH_S = 5.0  # an UPDATE of a few rows, only when a token was used

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
    written = session.execute(
        typed_text(
            "UPDATE api_token SET last_used_at = now() WHERE id IN ("
            " SELECT id FROM api_token WHERE id = ANY(CAST(:ids AS int[])) FOR UPDATE SKIP LOCKED)"
            " RETURNING id"
        ),
        {"ids": ids},
    ).scalars()
    skipped = set(ids) - set(written)
    with _lock:  # locked rows (and tokens deleted meanwhile, harmlessly) wait for the next flush
        _pending.update(skipped)
    return len(ids) - len(skipped)


def pending() -> frozenset[int]:
    """The token ids noted and not written yet."""
    with _lock:
        return frozenset(_pending)


def forget() -> None:
    """Drop what was noted and not written yet (tests whose tokens were rolled back)."""
    with _lock:
        _pending.clear()
