"""Who an ID token's claims are: the linked user (made at the first sign-in), the admin role
mapped from the provider's groups at every sign-in."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from benchdash.audit import service as audit_service
from benchdash.auth.models import User
from benchdash.db import utcnow
from benchdash.kit.errors import Unauthorized
from benchdash.oidc.models import UserIdentity
from benchdash.oidc.settings import OidcSettings, words

NO_PASSWORD = "!oidc"  # no argon2 hash: a password never matches it
SIGN_IN = "auth.oidc_sign_in"


@dataclass(frozen=True)
class SignedIn:
    """The outcome of one OIDC sign-in."""

    user: User
    created: bool
    role_changed: bool


def groups_of(claims: Mapping[str, Any], claim: str) -> set[str]:
    """The groups the claim lists (a list of names, or one string of names)."""
    value = claims.get(claim)
    if isinstance(value, str):
        return set(words(value))
    if isinstance(value, list):
        return {str(v) for v in value}
    return set()


def _free_username(session: Session, claims: Mapping[str, Any]) -> str:
    """A username from the claims that no user has yet (never an existing user's: a provider's
    account is linked by its subject, not taken over by name)."""
    wanted = str(claims.get("preferred_username") or claims.get("email") or claims["sub"])
    base = re.sub(r"[^A-Za-z0-9_.@-]", "-", wanted).lstrip("_.@-")[:100] or "user"
    name, n = base, 1
    while session.scalar(select(User.id).where(User.username == name)) is not None:
        n += 1
        name = f"{base}-{n}"
    return name


def sign_in(*, session: Session, settings: OidcSettings, claims: Mapping[str, Any]) -> SignedIn:
    """The user of a validated ID token's claims: found by (issuer, subject) or created; the
    admin role set from the groups when admin groups are configured; audited."""
    issuer, subject = str(claims["iss"]), str(claims["sub"])
    identity = session.scalar(
        select(UserIdentity)
        .where(UserIdentity.issuer == issuer, UserIdentity.subject == subject)
        .with_for_update()
    )
    created = identity is None
    if identity is None:
        user = User(username=_free_username(session, claims), password_hash=NO_PASSWORD)
        user.is_admin = False
        session.add(user)
        session.flush()
        identity = UserIdentity(issuer=issuer, subject=subject, user_id=user.id)
        session.add(identity)
    else:
        found = session.get(User, identity.user_id)
        assert found is not None  # the foreign key cascades
        user = found
    if user.disabled_at is not None:
        raise Unauthorized("this account is disabled: ask an admin")
    was_admin = bool(user.is_admin)
    admin_groups = set(words(settings.admin_groups))
    groups = groups_of(claims, settings.groups_claim)
    if admin_groups:
        user.is_admin = bool(groups & admin_groups)
    identity.last_sign_in_at = utcnow()
    session.flush()
    audit_service.record(
        session=session, actor=f"user:{user.username}", action=SIGN_IN,
        target=f"user:{user.username}",
        detail={"issuer": issuer, "subject": subject, "created": created,
                "is_admin": user.is_admin, "was_admin": was_admin, "groups": sorted(groups)},
    )  # fmt: skip
    return SignedIn(user=user, created=created, role_changed=was_admin != user.is_admin)
