"""Dependencies declared once as `Annotated` aliases."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

import anyio
from fastapi import Depends, Request
from fastapi.concurrency import run_in_threadpool
from itsdangerous import BadSignature, URLSafeTimedSerializer
from sqlalchemy.orm import Session

from benchdash.auth import service as auth_service
from benchdash.auth.models import User
from benchdash.config import get_settings
from benchdash.db import end_session, new_session, replica_session
from benchdash.kit.errors import Forbidden, Unauthorized

SESSION_COOKIE = "benchdash_session"
SESSION_MAX_AGE = 14 * 24 * 3600
CSRF_HEADER = "x-benchdash-csrf"


async def request_session() -> AsyncIterator[Session]:
    """One session per request: committed on success, rolled back on error, closed. Only the
    end (which talks to PostgreSQL) runs in the thread pool: a FastAPI dependency written as a
    plain generator costs a thread-pool round trip to start as well, and a request runs several.
    """
    session = new_session()
    try:
        yield session
    except BaseException:
        with anyio.CancelScope(shield=True):  # a cancelled request still returns its connection
            await run_in_threadpool(end_session, session, commit=False)
        raise
    with anyio.CancelScope(shield=True):
        await run_in_threadpool(end_session, session, commit=True)


SessionDep = Annotated[Session, Depends(request_session, scope="function")]
# A client that wrote within this many seconds reads from the primary (its own writes).
FRESH_COOKIE, FRESH_S = "benchdash_fresh", 10


async def read_session(request: Request, primary: SessionDep) -> AsyncIterator[Session]:
    """A dashboard read's session: the replica when one is configured and answers, unless this
    client wrote a moment ago (the cookie the API sets on every write); else the primary (a
    session that connects only when used)."""
    replica = None
    if get_settings().database_read_url and not request.cookies.get(FRESH_COOKIE):
        replica = await run_in_threadpool(replica_session)
    if replica is None:
        yield primary
        return
    try:
        yield replica
    finally:
        with anyio.CancelScope(shield=True):
            await run_in_threadpool(end_session, replica, commit=False)


ReadSessionDep = Annotated[Session, Depends(read_session, scope="function")]


def session_serializer() -> URLSafeTimedSerializer:
    """Signs and checks session cookies."""
    return URLSafeTimedSerializer(get_settings().secret_key, salt="session")


def session_secret(request: Request) -> str | None:
    """The server-side session id carried by the signed cookie, if the signature holds."""
    raw = request.cookies.get(SESSION_COOKIE)
    if not raw:
        return None
    try:
        secret = session_serializer().loads(raw, max_age=SESSION_MAX_AGE)
    except BadSignature:
        return None
    return secret if isinstance(secret, str) else None


def _user_from_cookie(request: Request, session: Session) -> User | None:
    secret = session_secret(request)
    return None if secret is None else auth_service.session_user(session=session, secret=secret)


def require_csrf(request: Request) -> None:
    """Cookie-authenticated mutations need a header a cross-site form cannot send."""
    if request.method not in ("GET", "HEAD", "OPTIONS") and request.headers.get(CSRF_HEADER) != "1":
        raise Forbidden(f"cookie-authenticated requests must send the {CSRF_HEADER}: 1 header")


async def optional_principal(
    request: Request, session: SessionDep
) -> auth_service.Principal | None:
    """The caller from a bearer token or a session cookie, or None (an anonymous read costs no
    thread: only a lookup in the database goes to the pool)."""
    header = request.headers.get("authorization")
    if header:
        scheme, _, value = header.partition(" ")
        if scheme.lower() != "bearer" or not value.strip():
            raise Unauthorized("the Authorization header must be 'Bearer <token>'")
        return await run_in_threadpool(
            auth_service.verify_token, session=session, plain=value.strip()
        )
    if not request.cookies.get(SESSION_COOKIE):
        return None
    user = await run_in_threadpool(_user_from_cookie, request, session)
    if user is None:
        return None
    require_csrf(request)
    return auth_service.user_principal(user)


OptionalPrincipal = Annotated[auth_service.Principal | None, Depends(optional_principal)]


def optional_user(request: Request, session: SessionDep) -> User | None:
    """The signed-in user, or None."""
    return _user_from_cookie(request, session)


OptionalUser = Annotated[User | None, Depends(optional_user)]


async def reader(principal: OptionalPrincipal) -> None:
    """Allow reads publicly when the setting says so, else require credentials."""
    if not get_settings().public_read and principal is None:
        raise Unauthorized("reading needs a signed-in user or a token (public reads are off)")


ReadAccess = Depends(reader)
