"""Argon2id password hashes, with the hashing work bounded per API process.

Each hash or check takes argon2's memory cost (64 MiB by default) for ~0.1 s; without a bound,
80 parallel guesses took one worker from 240 MB to 1.5 GB and slowed every other request. At
most `login_concurrency` checks run at once; one that cannot start within QUEUE_WAIT_S is
refused with 503 and Retry-After. An unknown user name is checked against a hash made once
with the same parameters, so it costs (and takes) what a real one does.
"""

from __future__ import annotations

import secrets
import threading
from functools import lru_cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from benchdash.config import get_settings
from benchdash.kit.errors import Busy

QUEUE_WAIT_S = 5.0
_hasher = PasswordHasher()


@lru_cache
def _slots() -> threading.BoundedSemaphore:
    return threading.BoundedSemaphore(get_settings().login_concurrency)


@lru_cache
def _unknown_user_hash() -> str:
    return _hasher.hash(secrets.token_urlsafe(24))


class _Slot:
    def __enter__(self) -> None:
        if not _slots().acquire(timeout=QUEUE_WAIT_S):
            raise Busy("too many passwords are being checked at once; try again shortly")

    def __exit__(self, *_: object) -> None:
        _slots().release()


def hash_password(password: str) -> str:
    """Argon2id hash of a password."""
    with _Slot():
        return _hasher.hash(password)


def verify(stored_hash: str | None, password: str) -> bool:
    """Whether `password` matches `stored_hash`; None (no such user) does the same work."""
    target = stored_hash if stored_hash is not None else _unknown_user_hash()
    with _Slot():
        try:
            _hasher.verify(target, password)
        except (VerificationError, InvalidHashError):
            return False
    return stored_hash is not None
