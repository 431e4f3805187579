"""Sign-in throttling per (user name, client address) pair and per address, shared by every
API process; a per-account ceiling warns the admins instead of locking anyone out.

Each attempt is counted **before** its password is checked, in a transaction of its own that
commits even when the sign-in fails, so parallel guesses cannot all slip through before the
first failure is written. After FREE attempts a key must wait 1 s, then 2, 4, … up to
MAX_WAIT_S between attempts; an attempt made sooner is refused with 429 and Retry-After, and
costs no password hashing. A success clears its pair and address keys; a key unused for
WINDOW_S starts over. Unknown and real user names are throttled alike.

The user name alone never blocks (OWASP: lock-out must not be a denial of service): guesses
at `admin` from one address make that address wait, not the real admin signing in from
another. The account's own count only watches: at CEILING attempts within the window the
caller records an `auth.sign_in_warning` audit event for the admins to see.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from sqlalchemy import case, delete, func, select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from benchdash.auth.models import LoginThrottle
from benchdash.kit.errors import TooManyRequests

FREE_PER_PAIR = 5  # attempts on one user name from one address before the backoff starts
FREE_PER_ADDRESS = 20  # attempts from one address (people behind one NAT share it)
WATCH = None  # a key that is counted but never makes anyone wait
CEILING = 100  # attempts on one account within the window (from anywhere): warn the admins
MAX_WAIT_S = 900.0
WINDOW_S = 900.0  # a key that saw no attempt this long starts over


def user_key(username: str) -> str:
    """The account's own key (counted, never blocking)."""
    return f"user:{username.strip().lower()[:200]}"


def keys(username: str, address: str | None) -> dict[str, int | None]:
    """The throttle keys of an attempt and the free attempts of each (None: never blocks)."""
    name = username.strip().lower()[:200]
    out: dict[str, int | None] = {user_key(username): WATCH}
    addr = (address or "unknown")[:90]
    out[f"pair:{addr}|{name}"] = FREE_PER_PAIR
    if address:
        out[f"addr:{addr}"] = FREE_PER_ADDRESS
    return out


def wait_s(attempts: int, free: int) -> float:
    """Seconds a key with `attempts` counted attempts must wait before the next one."""
    return 0.0 if attempts < free else min(2.0 ** (attempts - free), MAX_WAIT_S)


def admit(*, session: Session, attempt_keys: dict[str, int | None]) -> int:
    """Count this attempt against every key, or raise 429 when one of them must still wait.

    Returns the account's attempts in the window, this one included. Run it in a transaction
    of its own (committed whatever the password check says).
    """
    names = sorted(attempt_keys)
    # One attempt per key at a time, first attempts included (a key seen for the first time has
    # no row to lock): a transaction-scoped advisory lock per key, taken in one order.
    for name in names:
        session.execute(select(func.pg_advisory_xact_lock(func.hashtextextended(name, 0))))
    now: datetime = session.scalar(select(func.clock_timestamp()))  # type: ignore[assignment]
    rows = session.execute(
        select(LoginThrottle.key, LoginThrottle.attempts, LoginThrottle.last_at).where(
            LoginThrottle.key.in_(names)
        )
    ).all()
    longest = 0.0
    for key, attempts, last_at in rows:
        since = (now - last_at).total_seconds()
        free = attempt_keys[key]
        if since < WINDOW_S and free is not None:
            longest = max(longest, wait_s(attempts, free) - since)
    if longest > 0:
        raise TooManyRequests(
            f"too many sign-in attempts: try again in {math.ceil(longest)} s",
            retry_after_s=math.ceil(longest),
        )
    stmt = insert(LoginThrottle).values([{"key": k, "attempts": 1, "last_at": now} for k in names])
    stale = LoginThrottle.last_at < now - timedelta(seconds=WINDOW_S)
    counted = session.execute(
        stmt.on_conflict_do_update(
            index_elements=[LoginThrottle.key],
            set_={"attempts": case((stale, 1), else_=LoginThrottle.attempts + 1), "last_at": now},
        ).returning(LoginThrottle.key, LoginThrottle.attempts)
    ).all()
    return next((n for key, n in counted if key.startswith("user:")), 0)


def clear(*, session: Session, attempt_keys: dict[str, int | None]) -> None:
    """A successful sign-in: its pair and address keys start over (the account's own count
    stays: it measures guessing at the account, whoever else signs in)."""
    mine = [k for k, free in attempt_keys.items() if free is not WATCH]
    session.execute(delete(LoginThrottle).where(LoginThrottle.key.in_(mine)))
