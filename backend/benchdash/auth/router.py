"""Sign-in with a session cookie (HttpOnly, SameSite=Strict)."""

from __future__ import annotations

from fastapi import APIRouter, Response

from benchdash.auth import service as auth_service
from benchdash.auth.schemas import LoginIn, UserRead
from benchdash.config import get_settings
from benchdash.deps import (
    SESSION_COOKIE,
    SESSION_MAX_AGE,
    OptionalUser,
    SessionDep,
    session_serializer,
)
from benchdash.kit.responses import ERRORS

router = APIRouter(prefix="/api/v1/auth", tags=["auth"], responses=ERRORS)


@router.post("/login", response_model=UserRead)
def login(body: LoginIn, session: SessionDep, response: Response) -> UserRead:
    """Check the password and set the session cookie."""
    user = auth_service.authenticate(
        session=session, username=body.username, password=body.password
    )
    response.set_cookie(
        SESSION_COOKIE,
        session_serializer().dumps(user.id),
        max_age=SESSION_MAX_AGE,
        httponly=True,
        samesite="strict",
        secure=get_settings().environment == "production",
        path="/",
    )
    return UserRead(username=user.username, is_admin=user.is_admin)


@router.post("/logout", status_code=204)
def logout(response: Response) -> None:
    """Clear the session cookie."""
    response.delete_cookie(SESSION_COOKIE, path="/")


@router.get("/me", response_model=UserRead | None)
def read_me(user: OptionalUser) -> UserRead | None:
    """The signed-in user, or null when nobody is signed in."""
    return UserRead(username=user.username, is_admin=user.is_admin) if user else None
