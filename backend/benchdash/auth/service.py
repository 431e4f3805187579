"""Tokens (hashed, scoped, shown once) and users (argon2 passwords)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from benchdash.auth import usage
from benchdash.auth.models import SCOPES, ApiToken, User, UserSession
from benchdash.auth.passwords import hash_password, verify
from benchdash.db import utcnow
from benchdash.kit.errors import Forbidden, InvalidInput, Unauthorized

TOKEN_PREFIX = "bd_"


@dataclass(frozen=True)
class Principal:
    """Who is calling: a token (with scopes and systems) or a signed-in user."""

    name: str
    scopes: frozenset[str]
    systems: frozenset[str]  # empty = every system
    is_user: bool = False

    def may(self, scope: str, system: str | None = None) -> bool:
        """Whether this principal has `scope` (admin implies all) for `system`."""
        if scope not in self.scopes and "admin" not in self.scopes:
            return False
        return system is None or not self.systems or system in self.systems


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def create_token(
    *, session: Session, name: str, scopes: Sequence[str], systems: Sequence[str]
) -> tuple[ApiToken, str]:
    """Create a token; the plain text is returned once and only its hash is stored."""
    bad = [s for s in scopes if s not in SCOPES]
    if bad or not scopes:
        raise InvalidInput(
            f"scopes must be among {', '.join(SCOPES)}; got {', '.join(scopes) or 'none'}"
        )
    plain = generate_plain()
    prefix = plain.split("_", 2)[1]
    token = ApiToken(
        name=name,
        prefix=prefix,
        token_hash=_digest(plain),
        scopes=sorted(set(scopes)),
        systems=sorted(set(systems)),
    )
    session.add(token)
    session.flush()
    return token, plain


def ensure_token(*, session: Session, plain: str, name: str, scopes: Sequence[str]) -> ApiToken:
    """Make a token given in the environment valid (agents' token in Compose and `make up`)."""
    parts = plain.split("_", 2)
    if len(parts) < 3 or not plain.startswith(TOKEN_PREFIX) or len(parts[2]) < 20:
        raise InvalidInput("BENCHDASH_AGENT_TOKEN must look like bd_<12 hex>_<secret of 20+ chars>")
    token = session.scalar(select(ApiToken).where(ApiToken.prefix == parts[1]))
    if token is None:
        token = ApiToken(name=name, prefix=parts[1], token_hash="", systems=[])
        session.add(token)
    token.token_hash = _digest(plain)
    token.scopes = sorted(set(scopes))
    token.revoked_at = None
    session.flush()
    return token


def generate_plain() -> str:
    """A new random token in the bd_<prefix>_<secret> form (not stored)."""
    return f"{TOKEN_PREFIX}{secrets.token_hex(6)}_{secrets.token_urlsafe(32)}"


# Verified tokens are remembered for a few seconds per process (by the hash of the whole
# token), so a burst of uploads costs one lookup; a revocation takes effect within this time.
VERIFIED_TTL_S = 10.0
_verified: dict[str, tuple[float, int, Principal]] = {}


def verify_token(*, session: Session, plain: str) -> Principal:
    """Resolve a bearer token to a principal, comparing hashes in constant time."""
    parts = plain.split("_", 2)
    if len(parts) < 3 or not plain.startswith(TOKEN_PREFIX):
        raise Unauthorized("the token is malformed: expected bd_<prefix>_<secret>")
    digest = _digest(plain)
    cached = _verified.get(digest)
    if cached is not None and cached[0] > time.monotonic():
        usage.note(cached[1])
        return cached[2]
    token = session.scalar(select(ApiToken).where(ApiToken.prefix == parts[1]))
    expected = token.token_hash if token else _digest("")
    if token is None or not hmac.compare_digest(expected, digest):
        raise Unauthorized("the token is not valid")
    if token.revoked_at is not None:
        raise Unauthorized("the token has been revoked")
    usage.note(token.id)  # written later, outside this request's transaction
    principal = Principal(f"token:{token.name}", frozenset(token.scopes), frozenset(token.systems))
    if len(_verified) > 1000:
        _verified.clear()
    _verified[digest] = (time.monotonic() + VERIFIED_TTL_S, token.id, principal)
    return principal


def require(principal: Principal | None, scope: str, system: str | None = None) -> Principal:
    """The principal if it may do `scope` on `system`, else 401/403 saying why."""
    if principal is None:
        raise Unauthorized(
            f"this needs credentials with the {scope!r} scope: sign in, or send "
            "'Authorization: Bearer <token>' (create one with `benchdash token create`)"
        )
    if not principal.may(scope, system):
        if scope in principal.scopes or "admin" in principal.scopes:
            allowed = ", ".join(sorted(principal.systems))
            raise Forbidden(f"this token may act on {allowed} only, not {system!r}")
        raise Forbidden(f"this credential lacks the {scope!r} scope")
    return principal


def ensure_user(*, session: Session, username: str, password: str, is_admin: bool) -> User:
    """Create the user if missing (first start); an existing user keeps its password."""
    user = session.scalar(select(User).where(User.username == username))
    if user is None:
        user = User(username=username, password_hash=hash_password(password), is_admin=is_admin)
        session.add(user)
        session.flush()
    return user


def authenticate(*, session: Session, username: str, password: str) -> User:
    """The user if the password matches, else 401."""
    user = session.scalar(select(User).where(User.username == username))
    if verify(user.password_hash if user else None, password) and user is not None:
        if user.disabled_at is not None:
            raise Unauthorized("this account is disabled: ask an admin")
        return user
    raise Unauthorized("wrong username or password")


def start_session(*, session: Session, user: User, max_age_s: int) -> str:
    """Create a server-side session for `user`; returns the cookie's secret (shown once)."""
    secret = secrets.token_urlsafe(32)
    now = utcnow()
    session.add(
        UserSession(
            token_hash=_digest(secret),
            user_id=user.id,
            created_at=now,
            expires_at=now + timedelta(seconds=max_age_s),
        )
    )
    session.flush()
    return secret


def session_user(*, session: Session, secret: str) -> User | None:
    """The user of a live session (not ended, not expired), or None."""
    return session.scalar(
        select(User)
        .join(UserSession, UserSession.user_id == User.id)
        .where(UserSession.token_hash == _digest(secret), UserSession.expires_at > utcnow())
        .where(User.disabled_at.is_(None))
    )


def end_session(*, session: Session, secret: str) -> None:
    """End one session (logout): its cookie stops working at once, everywhere."""
    session.execute(delete(UserSession).where(UserSession.token_hash == _digest(secret)))


def end_all_sessions(*, session: Session, user: User) -> None:
    """End every session of a user (password change)."""
    session.execute(delete(UserSession).where(UserSession.user_id == user.id))


def set_password(*, session: Session, user: User, password: str) -> None:
    """Change a user's password and end all of their sessions."""
    user.password_hash = hash_password(password)
    end_all_sessions(session=session, user=user)
    session.flush()


def user_principal(user: User) -> Principal:
    """A signed-in user acts with trigger rights, and admin rights if an admin."""
    scopes = {"trigger", "upload"} | ({"admin"} if user.is_admin else set())
    return Principal(f"user:{user.username}", frozenset(scopes), frozenset(), is_user=True)
