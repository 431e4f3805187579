"""The Authlib client of the configured provider: discovery, PKCE (S256), state and nonce,
and the ID token's checks (signature by the provider's JWKS, iss, aud, exp, nonce)."""

from __future__ import annotations

import warnings
from functools import lru_cache
from typing import Any

# Authlib prefers httpx2 and says so once at import; benchdash (and Starlette's test client)
# use httpx, which Authlib 1.9 still supports fully.
warnings.filterwarnings("ignore", message="The httpx module is deprecated", module="authlib")
from authlib.integrations.starlette_client import OAuth, StarletteOAuth2App  # noqa: E402

from benchdash.oidc.settings import OidcSettings  # noqa: E402

NAME = "oidc"
TIMEOUT_S = 10.0


class ProviderError(Exception):
    """The provider could not be used (unreachable, or its discovery document is wrong)."""


def discovery_url(issuer: str) -> str:
    """Where an issuer publishes its metadata (OpenID Connect Discovery 1.0, section 4)."""
    return issuer.rstrip("/") + "/.well-known/openid-configuration"


@lru_cache(maxsize=8)
def _client(issuer: str, client_id: str, client_secret: str | None, scopes: str) -> Any:
    oauth = OAuth()
    oauth.register(
        name=NAME,
        client_id=client_id,
        client_secret=client_secret,
        server_metadata_url=discovery_url(issuer),
        client_kwargs={
            "scope": scopes,
            "code_challenge_method": "S256",
            "timeout": TIMEOUT_S,
            # a public client (no secret) names itself in the token request's body
            "token_endpoint_auth_method": "client_secret_basic" if client_secret else "none",
        },
    )
    return oauth.create_client(NAME)


async def client_for(settings: OidcSettings) -> StarletteOAuth2App:
    """The provider's client, its discovery document loaded and checked: the document must name
    the configured issuer exactly (else tokens of another issuer could pass)."""
    assert settings.issuer and settings.client_id
    client: StarletteOAuth2App = _client(
        settings.issuer, settings.client_id, settings.client_secret, settings.scopes
    )
    try:
        metadata = await client.load_server_metadata()
    except Exception as e:  # httpx errors, a body that is not JSON
        client.server_metadata = {}
        raise ProviderError(
            f"the provider's discovery document {discovery_url(settings.issuer)} could not be "
            f"read: {e}"
        ) from e
    if metadata.get("issuer") != settings.issuer:
        client.server_metadata = {}
        raise ProviderError(
            f"the provider's discovery document names the issuer {metadata.get('issuer')!r}, "
            f"not BENCHDASH_OIDC_ISSUER={settings.issuer!r}"
        )
    for key in ("authorization_endpoint", "token_endpoint", "jwks_uri"):
        if not metadata.get(key):
            client.server_metadata = {}
            raise ProviderError(f"the provider's discovery document has no {key}")
    return client
