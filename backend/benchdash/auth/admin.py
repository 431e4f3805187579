"""What an admin does to tokens and users (the API of `benchdash token` and `benchdash user`):
list, create, revoke or disable. The caller audits; nothing here commits."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from benchdash.auth import service as auth_service
from benchdash.auth import usage
from benchdash.auth.models import ApiToken, User
from benchdash.auth.passwords import hash_password
from benchdash.db import utcnow
from benchdash.kit.errors import Conflict, Forbidden, NotFound

MIN_PASSWORD = 12


def require_admin(principal: auth_service.Principal | None) -> auth_service.Principal:
    """An admin over every system (a token scoped to some systems manages no credentials)."""
    who = auth_service.require(principal, "admin")
    if who.systems:
        raise Forbidden("managing tokens and users needs admin rights over every system")
    return who


def tokens(*, session: Session) -> Sequence[ApiToken]:
    """Every token, newest first (their hashes stay here: only prefixes are shown), with this
    process's uses not written yet written first, so "Last used" is current."""
    usage.flush(session)
    newest = select(ApiToken).order_by(ApiToken.id.desc())
    return session.scalars(newest.execution_options(populate_existing=True)).all()


def revoke_token(*, session: Session, token_id: int) -> ApiToken:
    """Revoke a token (it stops working within seconds: verified tokens are cached briefly)."""
    token = session.get(ApiToken, token_id)
    if token is None:
        raise NotFound(f"no token {token_id}")
    if token.revoked_at is None:
        token.revoked_at = utcnow()
        session.flush()
    return token


def users(*, session: Session) -> Sequence[User]:
    """Every user, by name."""
    return session.scalars(select(User).order_by(User.username)).all()


def create_user(*, session: Session, username: str, password: str, is_admin: bool) -> User:
    """A new user; 409 when the name is taken."""
    if session.scalar(select(User.id).where(User.username == username)) is not None:
        raise Conflict(f"a user named {username!r} exists already")
    user = User(username=username, password_hash=hash_password(password), is_admin=is_admin)
    session.add(user)
    session.flush()
    return user


def set_disabled(*, session: Session, user_id: int, disabled: bool, by: str) -> User:
    """Disable a user (their sessions end, they cannot sign in) or enable them again."""
    user = session.get(User, user_id)
    if user is None:
        raise NotFound(f"no user {user_id}")
    if disabled and by == f"user:{user.username}":
        raise Forbidden("you cannot disable yourself: ask another admin")
    if disabled and user.disabled_at is None:
        user.disabled_at = utcnow()
        auth_service.end_all_sessions(session=session, user=user)
    elif not disabled:
        user.disabled_at = None
    session.flush()
    return user
