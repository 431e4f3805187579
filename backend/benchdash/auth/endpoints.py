"""Sign-in with a server-side session behind an HttpOnly, SameSite=Strict cookie."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response

from benchdash.auth import service as auth_service
from benchdash.auth import throttle
from benchdash.auth.schemas import LoginIn, UserRead
from benchdash.config import get_settings
from benchdash.db import SessionMaker, session_maker
from benchdash.deps import (
    SESSION_COOKIE,
    SESSION_MAX_AGE,
    OptionalUser,
    SessionDep,
    require_csrf,
    session_secret,
    session_serializer,
)
from benchdash.kit.responses import ERRORS, THROTTLED

router = APIRouter(prefix="/api/v1/auth", tags=["auth"], responses=ERRORS)


@router.post("/login", response_model=UserRead, responses=THROTTLED)
def login(
    body: LoginIn,
    request: Request,
    session: SessionDep,
    new_session: Annotated[SessionMaker, Depends(session_maker)],
    response: Response,
) -> UserRead:
    """Check the password (throttled), start a session and set its cookie."""
    attempt = throttle.keys(body.username, request.client.host if request.client else None)
    with new_session() as own:  # counted and committed even when the password is wrong
        throttle.admit(session=own, attempt_keys=attempt)
    user = auth_service.authenticate(
        session=session, username=body.username, password=body.password
    )
    throttle.clear(session=session, attempt_keys=attempt)
    secret = auth_service.start_session(session=session, user=user, max_age_s=SESSION_MAX_AGE)
    response.set_cookie(
        SESSION_COOKIE,
        session_serializer().dumps(secret),
        max_age=SESSION_MAX_AGE,
        httponly=True,
        samesite="strict",
        secure=get_settings().environment == "production",
        path="/",
    )
    return UserRead(username=user.username, is_admin=user.is_admin)


@router.post("/logout", status_code=204)
def logout(request: Request, session: SessionDep, response: Response) -> None:
    """End the session on the server and clear its cookie (needs the CSRF header)."""
    secret = session_secret(request)
    if secret is not None:
        require_csrf(request)
        auth_service.end_session(session=session, secret=secret)
    response.delete_cookie(SESSION_COOKIE, path="/")


@router.get("/me", response_model=UserRead | None)
def read_me(user: OptionalUser) -> UserRead | None:
    """The signed-in user, or null when nobody is signed in."""
    return UserRead(username=user.username, is_admin=user.is_admin) if user else None
