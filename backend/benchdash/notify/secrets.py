"""Secrets a subscription must use but never show again, encrypted with the server's key.

A webhook's HMAC secret has to be usable to sign, so it cannot be hashed: it is encrypted
(Fernet: AES-128-CBC with HMAC-SHA256) under a key derived from BENCHDASH_SECRET_KEY. Changing
that key makes stored secrets unreadable: their deliveries fail saying so (re-create them).
"""

from __future__ import annotations

import base64
import hashlib
import secrets as stdlib_secrets
from functools import lru_cache

from cryptography.fernet import Fernet, InvalidToken

from benchdash.config import get_settings

SECRET_PREFIX = "whsec_"


class SecretUnreadable(Exception):
    """The stored secret was encrypted under another server key."""


@lru_cache
def _fernet(key: str) -> Fernet:
    derived = hashlib.sha256(b"benchdash.notify.secret\x00" + key.encode()).digest()
    return Fernet(base64.urlsafe_b64encode(derived))


def encrypt(plain: str) -> str:
    """The secret, encrypted for storage."""
    return _fernet(get_settings().secret_key).encrypt(plain.encode()).decode()


def decrypt(stored: str) -> str:
    """The stored secret in clear, or SecretUnreadable."""
    try:
        return _fernet(get_settings().secret_key).decrypt(stored.encode()).decode()
    except InvalidToken:
        raise SecretUnreadable(
            "the stored secret cannot be decrypted (BENCHDASH_SECRET_KEY changed?): "
            "re-create the subscription"
        ) from None


def new_signing_secret() -> str:
    """A fresh webhook signing secret (shown once)."""
    return SECRET_PREFIX + stdlib_secrets.token_urlsafe(32)


def mask_url(url: str) -> str:
    """A Slack URL as it may be shown: its host and the last 4 characters of its path."""
    scheme, _, rest = url.partition("://")
    host = rest.split("/", 1)[0]
    return f"{scheme}://{host}/…{url[-4:]}"
