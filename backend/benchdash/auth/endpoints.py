"""Sign-in with a server-side session behind an HttpOnly, SameSite=Strict cookie."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request, Response
from sqlalchemy import select

from benchdash.audit import service as audit_service
from benchdash.audit.models import AuditEvent
from benchdash.auth import admin, throttle
from benchdash.auth import service as auth_service
from benchdash.auth.models import ApiToken, User
from benchdash.auth.schemas import (
    LoginIn,
    SignInWarning,
    TokenCreate,
    TokenCreated,
    TokenRead,
    UserAdminRead,
    UserCreate,
    UserRead,
    UserState,
)
from benchdash.config import get_settings
from benchdash.db import SessionMaker, session_maker
from benchdash.deps import (
    SESSION_COOKIE,
    SESSION_MAX_AGE,
    OptionalPrincipal,
    OptionalUser,
    SessionDep,
    require_csrf,
    session_secret,
    session_serializer,
)
from benchdash.kit.errors import Forbidden
from benchdash.kit.responses import ERRORS, THROTTLED
from benchdash.kit.validation import Int4
from benchdash.oidc.settings import get_oidc_settings

SIGN_IN_WARNING = "auth.sign_in_warning"
router = APIRouter(prefix="/api/v1/auth", tags=["auth"], responses=ERRORS)


@router.post("/login", response_model=UserRead, responses=THROTTLED)
def login(
    body: LoginIn,
    request: Request,
    session: SessionDep,
    new_session: Annotated[SessionMaker, Depends(session_maker)],
    response: Response,
) -> UserRead:
    """Check the password (throttled), start a session and set its cookie; 403 when password
    sign-in is switched off (BENCHDASH_LOCAL_SIGN_IN=false)."""
    oidc = get_oidc_settings()
    if not oidc.local_sign_in:
        raise Forbidden(
            f"sign-in with a password is switched off on this server: use 'Sign in with "
            f"{oidc.name}' (an admin turns it on with BENCHDASH_LOCAL_SIGN_IN=true)"
        )
    address = request.client.host if request.client else None
    attempt = throttle.keys(body.username, address)
    with new_session() as own:  # counted and committed even when the password is wrong
        if throttle.admit(session=own, attempt_keys=attempt) == throttle.CEILING:
            audit_service.record(
                session=own, actor="system", action=SIGN_IN_WARNING,
                target=throttle.user_key(body.username),
                detail={"attempts": throttle.CEILING, "window_s": throttle.WINDOW_S,
                        "address": address},
            )  # fmt: skip
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
        # Over HTTPS (directly or from a trusted proxy) always; in production even when not.
        secure=request.url.scheme == "https" or get_settings().environment == "production",
        path="/",
    )
    return UserRead(username=user.username, is_admin=user.is_admin)


@router.get("/sign-in-warnings", response_model=list[SignInWarning])
def sign_in_warnings(session: SessionDep, principal: OptionalPrincipal) -> list[SignInWarning]:
    """Accounts that saw CEILING sign-in attempts within the throttle window, newest first:
    someone is guessing (nobody is locked out; each address waits on its own) (admin)."""
    admin.require_admin(principal)
    events = session.scalars(
        select(AuditEvent)
        .where(AuditEvent.action == SIGN_IN_WARNING)
        .order_by(AuditEvent.id.desc())
        .limit(200)
    )
    return [
        SignInWarning(
            at=e.at,
            username=e.target.removeprefix("user:"),
            attempts=e.detail["attempts"],
            window_s=e.detail["window_s"],
            last_address=e.detail.get("address"),
        )
        for e in events
    ]


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


# Admin: what `benchdash token` and `benchdash user` do, over the API (admin over every system).


def _token(t: ApiToken) -> TokenRead:
    return TokenRead.model_validate(t, from_attributes=True)


def _user(u: User) -> UserAdminRead:
    return UserAdminRead.model_validate(u, from_attributes=True)


@router.get("/tokens", response_model=list[TokenRead])
def list_tokens(session: SessionDep, principal: OptionalPrincipal) -> list[TokenRead]:
    """Every API token, newest first: prefixes, scopes and use, never secrets (admin)."""
    admin.require_admin(principal)
    return [_token(t) for t in admin.tokens(session=session)]


@router.post("/tokens", response_model=TokenCreated, status_code=201)
def create_token(
    body: TokenCreate, session: SessionDep, principal: OptionalPrincipal
) -> TokenCreated:
    """Create a token; its full text is in this answer only, never again (admin, audited)."""
    who = admin.require_admin(principal)
    token, plain = auth_service.create_token(
        session=session, name=body.name, scopes=body.scopes, systems=body.systems
    )
    audit_service.record(
        session=session,
        actor=who.name,
        action="token.create",
        target=f"token:{token.prefix}",
        detail={"name": token.name, "scopes": token.scopes, "systems": token.systems},
    )
    return TokenCreated(**_token(token).model_dump(), token=plain)


@router.post("/tokens/{token_id}/revoke", response_model=TokenRead)
def revoke_token(
    token_id: Annotated[Int4, Path(ge=1)], session: SessionDep, principal: OptionalPrincipal
) -> TokenRead:
    """Revoke a token: it stops working within seconds (admin, audited)."""
    who = admin.require_admin(principal)
    token = admin.revoke_token(session=session, token_id=token_id)
    audit_service.record(
        session=session, actor=who.name, action="token.revoke", target=f"token:{token.prefix}",
        detail={"name": token.name},
    )  # fmt: skip
    return _token(token)


@router.get("/users", response_model=list[UserAdminRead])
def list_users(session: SessionDep, principal: OptionalPrincipal) -> list[UserAdminRead]:
    """Every user, by name (admin)."""
    admin.require_admin(principal)
    return [_user(u) for u in admin.users(session=session)]


@router.post("/users", response_model=UserAdminRead, status_code=201)
def create_user(
    body: UserCreate, session: SessionDep, principal: OptionalPrincipal
) -> UserAdminRead:
    """Create a user (password of 12+ characters); 409 when the name is taken (admin, audited)."""
    who = admin.require_admin(principal)
    user = admin.create_user(
        session=session, username=body.username, password=body.password, is_admin=body.is_admin
    )
    audit_service.record(
        session=session, actor=who.name, action="user.create", target=f"user:{user.username}",
        detail={"is_admin": user.is_admin},
    )  # fmt: skip
    return _user(user)


@router.put("/users/{user_id}/disabled", response_model=UserAdminRead)
def set_user_disabled(
    user_id: Annotated[Int4, Path(ge=1)],
    body: UserState,
    session: SessionDep,
    principal: OptionalPrincipal,
) -> UserAdminRead:
    """Disable a user (their sessions end; they cannot sign in) or enable them (admin, audited)."""
    who = admin.require_admin(principal)
    user = admin.set_disabled(session=session, user_id=user_id, disabled=body.disabled, by=who.name)
    audit_service.record(
        session=session, actor=who.name, action="user.disable" if body.disabled else "user.enable",
        target=f"user:{user.username}", detail={},
    )  # fmt: skip
    return _user(user)
