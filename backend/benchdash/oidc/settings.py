"""The OIDC provider's settings (`BENCHDASH_OIDC_*`) and whether passwords may sign in."""

from __future__ import annotations

from functools import lru_cache

from pydantic import AliasChoices, Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from benchdash.config import REPO_ROOT


def words(value: str) -> list[str]:
    """Items separated by commas or spaces (scopes, group names)."""
    return [item for item in value.replace(",", " ").split() if item]


class OidcSettings(BaseSettings):
    """One OpenID Connect provider; unset issuer means no OIDC sign-in."""

    model_config = SettingsConfigDict(
        env_prefix="BENCHDASH_OIDC_", env_file=REPO_ROOT / ".env", extra="ignore"
    )

    issuer: str | None = Field(
        None, description="The provider's issuer URL (its /.well-known/openid-configuration)"
    )
    client_id: str | None = Field(None, description="The client id registered at the provider")
    client_secret: str | None = Field(None, description="The client's secret (confidential)")
    scopes: str = Field("openid profile email", description="Scopes asked for")
    groups_claim: str = Field("groups", description="The ID-token claim that lists the groups")
    admin_groups: str = Field(
        "",
        description="Groups (comma-separated) whose members are admins; the role is set at every "
        "sign-in. Empty: OIDC users are not made or unmade admins by sign-in",
    )
    name: str = Field("OpenID Connect", description="The provider's name on the sign-in button")
    local_sign_in: bool = Field(
        True,
        validation_alias=AliasChoices("BENCHDASH_LOCAL_SIGN_IN", "local_sign_in"),
        description="BENCHDASH_LOCAL_SIGN_IN: allow sign-in with a password",
    )

    @model_validator(mode="after")
    def _complete(self) -> OidcSettings:
        if self.issuer and not self.client_id:
            raise ValueError("BENCHDASH_OIDC_CLIENT_ID must be set with BENCHDASH_OIDC_ISSUER")
        if self.issuer and "openid" not in words(self.scopes):
            raise ValueError("BENCHDASH_OIDC_SCOPES must include openid")
        if not self.local_sign_in and not self.issuer:
            raise ValueError(
                "BENCHDASH_LOCAL_SIGN_IN=false needs BENCHDASH_OIDC_ISSUER: nobody could sign in"
            )
        return self

    @property
    def enabled(self) -> bool:
        """Whether OIDC sign-in is configured."""
        return bool(self.issuer and self.client_id)


@lru_cache
def get_oidc_settings() -> OidcSettings:
    """The process-wide OIDC settings (cached; tests clear the cache)."""
    return OidcSettings()
