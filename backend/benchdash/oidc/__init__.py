"""Sign-in with an OpenID Connect provider (authorization code flow with PKCE, via Authlib)."""
