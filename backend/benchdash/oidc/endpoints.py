"""Sign-in with the configured OpenID Connect provider: the sign-in methods the UI offers, the
redirect to the provider, and the callback that starts the same session as a password does."""

from __future__ import annotations

import html
import logging
import re
from typing import Annotated

from authlib.integrations.base_client import OAuthError
from fastapi import APIRouter, Depends, FastAPI, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from joserfc.errors import JoseError
from pydantic import BaseModel, Field
from starlette.middleware.sessions import SessionMiddleware

from benchdash.auth import service as auth_service
from benchdash.config import get_settings
from benchdash.db import SessionMaker, session_maker
from benchdash.deps import SESSION_COOKIE, SESSION_MAX_AGE, session_serializer
from benchdash.kit.errors import AppError, NotFound
from benchdash.kit.problem import problem_response
from benchdash.kit.responses import ERRORS
from benchdash.oidc import service
from benchdash.oidc.client import ProviderError, client_for
from benchdash.oidc.settings import OidcSettings, get_oidc_settings

log = logging.getLogger("benchdash")
PREFIX = "/api/v1/auth"
FLOW_COOKIE = "benchdash_oidc"  # state, nonce and PKCE verifier between login and callback
FLOW_MAX_AGE_S = 600
router = APIRouter(prefix=PREFIX, tags=["auth"], responses=ERRORS)


class OidcMethod(BaseModel):
    """Sign-in with the configured OpenID Connect provider."""

    name: str = Field(description="The provider's name, for the button: Sign in with <name>")
    login_url: str = Field(description="Open this in the browser to sign in")


class SignInConfig(BaseModel):
    """The sign-in methods this server offers."""

    local: bool = Field(description="Whether users may sign in with a password")
    oidc: OidcMethod | None = Field(description="The OpenID Connect provider, if configured")


def install(app: FastAPI) -> None:
    """Check the settings (a server with bad ones does not start) and keep the flow's state in
    a signed cookie that only this router's paths see (SameSite=Lax: the provider's redirect
    back is a cross-site navigation)."""
    get_oidc_settings()
    settings = get_settings()
    app.add_middleware(
        SessionMiddleware, secret_key=settings.secret_key, session_cookie=FLOW_COOKIE,
        max_age=FLOW_MAX_AGE_S, path=f"{PREFIX}/oidc", same_site="lax",
        https_only=settings.environment == "production",
    )  # fmt: skip


@router.get("/config", response_model=SignInConfig)
def sign_in_config() -> SignInConfig:
    """Which sign-in methods the UI should show."""
    oidc = get_oidc_settings()
    method = OidcMethod(name=oidc.name, login_url=f"{PREFIX}/oidc/login") if oidc.enabled else None
    return SignInConfig(local=oidc.local_sign_in, oidc=method)


def _configured() -> OidcSettings:
    oidc = get_oidc_settings()
    if not oidc.enabled:
        raise NotFound("sign-in with OpenID Connect is not configured (BENCHDASH_OIDC_ISSUER)")
    return oidc


def callback_url(request: Request) -> str:
    """The redirect URL registered at the provider: <public URL>/api/v1/auth/oidc/callback."""
    public = get_settings().public_url
    if public:
        return public.rstrip("/") + f"{PREFIX}/oidc/callback"
    return str(request.url_for("oidc_callback"))


def _refused(request: Request, status: int, detail: str) -> Response:
    """A failed sign-in: a page for a browser, a problem document for anyone else."""
    log.warning("OIDC sign-in refused: %s", detail)
    if "text/html" not in request.headers.get("accept", ""):
        return problem_response(status, "Sign-in refused", detail)
    page = (
        "<!doctype html><html lang=en><meta charset=utf-8><title>Sign-in refused</title>"
        f"<h1>Sign-in refused</h1><p id=reason>{html.escape(detail)}</p>"
        '<p><a href="/">Back to benchdash</a></p></html>'
    )
    return HTMLResponse(page, status_code=status)


def same_site_path(next_path: str | None) -> str:
    """Where to go after sign-in: a path of this site, never another origin (no `//`, no
    backslash, no white space or control character a browser would drop from the URL)."""
    ok = next_path is not None and re.fullmatch(r"/(?!/)[!-\[\]-~]*", next_path) is not None
    return next_path if ok and next_path else "/"


@router.get("/oidc/login", status_code=302, response_class=RedirectResponse)
async def oidc_login(
    request: Request,
    next_path: Annotated[
        str | None, Query(alias="next", max_length=2000, description="A path to return to")
    ] = None,
) -> Response:
    """Redirect to the provider's authorization endpoint (code flow, PKCE S256, state, nonce);
    after sign-in, back to `next` (a path of this site) or the dashboard."""
    oidc = _configured()
    request.session["next"] = same_site_path(next_path)
    try:
        client = await client_for(oidc)
    except ProviderError as e:
        return _refused(request, 502, str(e))
    redirect: Response = await client.authorize_redirect(request, callback_url(request))
    return redirect


def claims_options(oidc: OidcSettings) -> dict[str, dict[str, object]]:
    """The ID token must come from the configured issuer and name this client among its
    audiences (Authlib checks the signature, exp, iat and the nonce itself)."""
    return {
        "iss": {"essential": True, "values": [oidc.issuer]},
        "aud": {"essential": True, "values": [oidc.client_id]},
    }


def _start(oidc: OidcSettings, claims: dict[str, object], new_session: SessionMaker) -> str:
    with new_session() as session:
        user = service.sign_in(session=session, settings=oidc, claims=claims).user
        return auth_service.start_session(session=session, user=user, max_age_s=SESSION_MAX_AGE)


@router.get("/oidc/callback", status_code=303, response_class=RedirectResponse)
async def oidc_callback(
    request: Request, new_session: Annotated[SessionMaker, Depends(session_maker)]
) -> Response:
    """The provider's redirect back: check state, trade the code (with the PKCE verifier) for
    tokens, check the ID token, then sign the user in (created at the first sign-in, the admin
    role mapped from the groups) and go to the dashboard. Any failure creates nothing."""
    oidc = _configured()
    try:
        client = await client_for(oidc)
        token = await client.authorize_access_token(request, claims_options=claims_options(oidc))
    except ProviderError as e:
        return _refused(request, 502, str(e))
    except OAuthError as e:  # the provider's error, a state that is not ours, a refused code
        words = e.description or e.error or "no reason given"
        return _refused(request, 400, f"the provider refused the sign-in ({e.error}): {words}")
    except (JoseError, ValueError) as e:
        return _refused(request, 400, f"the provider's ID token is not valid: {e}")
    except Exception as e:  # the provider did not answer
        log.exception("OIDC token request failed")
        return _refused(request, 502, f"the provider's token endpoint could not be used: {e}")
    claims = token.get("userinfo")
    if not claims:
        return _refused(request, 400, "the provider sent no ID token (is openid among scopes?)")
    try:
        secret = await run_in_threadpool(_start, oidc, dict(claims), new_session)
    except AppError as e:
        return _refused(request, e.status_code, e.detail)
    response = RedirectResponse(same_site_path(request.session.pop("next", None)), status_code=303)
    response.set_cookie(
        SESSION_COOKIE, session_serializer().dumps(secret), max_age=SESSION_MAX_AGE,
        httponly=True, samesite="strict", path="/",
        secure=request.url.scheme == "https" or get_settings().environment == "production",
    )  # fmt: skip
    return response
