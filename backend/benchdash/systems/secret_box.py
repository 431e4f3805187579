"""A system's webhook secret, encrypted with the server's key (never shown again).

GitHub signs a push with HMAC-SHA256 of the body under the secret, so the server must hold the
secret itself: it is stored Fernet-encrypted under a key derived from BENCHDASH_SECRET_KEY.
"""

from __future__ import annotations

import base64
import hashlib
from functools import lru_cache

from cryptography.fernet import Fernet, InvalidToken

from benchdash.config import get_settings


@lru_cache
def _fernet(key: str) -> Fernet:
    derived = hashlib.sha256(b"benchdash.systems.hook_secret\x00" + key.encode()).digest()
    return Fernet(base64.urlsafe_b64encode(derived))


def encrypt(plain: str) -> str:
    """The secret, encrypted for storage."""
    return _fernet(get_settings().secret_key).encrypt(plain.encode()).decode()


def decrypt(stored: str) -> str | None:
    """The stored secret in clear; None if another server key encrypted it (set it again)."""
    try:
        return _fernet(get_settings().secret_key).decrypt(stored.encode()).decode()
    except InvalidToken:
        return None
