"""Settings: one pydantic-settings object read from the environment and `.env`."""

from __future__ import annotations

import ipaddress
import os
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parents[2]
INSECURE_SECRET = "change-me-in-production"


def proxy_list(value: str) -> list[str]:
    """The trusted proxies of BENCHDASH_TRUSTED_PROXIES, one address or CIDR each."""
    return [item.strip() for item in value.split(",") if item.strip()]


class Settings(BaseSettings):
    """Every knob of the server, read from `BENCHDASH_*` variables (and `DATABASE_URL`)."""

    model_config = SettingsConfigDict(
        env_prefix="BENCHDASH_", env_file=REPO_ROOT / ".env", extra="ignore"
    )

    environment: str = Field("development", description="development | production")
    database_url: str | None = Field(
        None,
        validation_alias="DATABASE_URL",
        description="PostgreSQL URL; unset means the embedded server under data_dir",
    )
    database_read_url: str | None = Field(
        None,
        description="A streaming replica of DATABASE_URL for dashboard reads (writes, live run "
        "pages and a client's reads just after its own write stay on the primary)",
    )
    data_dir: Path = Field(REPO_ROOT / ".data", description="Where the embedded PostgreSQL lives")
    secret_key: str = Field(INSECURE_SECRET, description="Signs session cookies")
    public_read: bool = Field(True, description="Allow reads without signing in")
    max_body_bytes: int = Field(5 * 1024 * 1024, description="Largest accepted request body")
    admin_username: str = Field("admin", description="Admin user created on first start")
    admin_password: str | None = Field(None, description="Admin password (first start only)")
    agent_token: str | None = Field(
        None,
        description="One token for the agents of every system (scopes agent, upload), made "
        "valid at start; prefer agent_tokens",
    )
    agent_tokens: str | None = Field(
        None,
        description="One token per runner agent, `system=token` pairs separated by commas; "
        "each made valid at start with scopes agent and upload for its system only",
    )
    frontend_dist: Path = Field(REPO_ROOT / "frontend" / "dist", description="Built UI")
    db_pool_size: int = Field(20, ge=1, le=200, description="Connections per API process")
    db_pool_timeout_s: float = Field(
        10.0, gt=0, description="Wait this long for a free connection, then answer 503"
    )
    db_statement_timeout_ms: int = Field(30_000, ge=0, description="Longest statement (0: none)")
    db_lock_timeout_ms: int = Field(5_000, ge=0, description="Longest wait on a lock (0: none)")
    reruns: int = Field(
        2, ge=0, le=10, description="Re-runs that confirm a runner-executed suspected change"
    )
    heartbeat_timeout_s: float = Field(60.0, description="Fail active runs silent this long")
    reaper_interval_s: float = Field(10.0, description="How often to look for them (0: never)")
    agent_live_s: float = Field(
        30.0, gt=0, description="An agent silent this long is not online (agents say so every 10 s)"
    )
    schedule_grace_s: float = Field(
        600.0,
        ge=0,
        description="Queue a manifest's cron run this long after its tick at the latest "
        "(0: no scheduled runs)",
    )
    ref_check_timeout_s: float = Field(
        10.0, ge=0, description="Wait this long for `git ls-remote` checking a ref (0: no check)"
    )
    no_agent_wait_s: float = Field(
        600.0, ge=0, description="Fail a run queued this long for a system with no agent (0: never)"
    )
    workers: int = Field(
        default_factory=lambda: max(1, min(4, os.cpu_count() or 1)),
        ge=1,
        le=64,
        description="API worker processes (default: one per core, at most 4)",
    )
    login_concurrency: int = Field(
        2, ge=1, le=64, description="Password checks at once per API process (64 MiB each)"
    )
    error_log: Path | None = Field(
        None, description="Append every 5xx answered (but 503) here as a JSON line (tests)"
    )
    notify_worker: bool = Field(
        True, description="Deliver notifications from this API process (procrastinate queue)"
    )
    notify_max_attempts: int = Field(12, ge=1, le=50, description="Tries per notification")
    claim_max_wait_s: float = Field(
        30.0,
        ge=0,
        le=30,
        description="The longest an agent's claim is held (long poll); a proxy that closes idle "
        "requests sooner needs less",
    )
    notify_pause_after: int = Field(
        5,
        ge=0,
        le=1000,
        description="Pause a subscription after this many failed deliveries in a row (0: never)",
    )
    notify_backoff_s: float = Field(
        2.0, gt=0, description="First retry after this long, doubling each time"
    )
    notify_backoff_max_s: float = Field(3600.0, gt=0, description="Longest wait between tries")
    notify_allow_private: bool = Field(
        False,
        description="Let webhook and Slack notifications reach loopback, link-local, private "
        "and other non-public addresses (refused by default: SSRF)",
    )
    notify_timeout_s: float = Field(10.0, gt=0, description="Per HTTP or SMTP delivery attempt")
    notify_stalled_s: float = Field(
        30.0, gt=0, description="A delivery whose process went silent this long is tried again"
    )
    public_url: str | None = Field(
        None, description="The dashboard's URL, for links in notifications (e.g. https://bench.x)"
    )
    smtp_host: str | None = Field(None, description="SMTP server for e-mail notifications")
    smtp_port: int = Field(587, ge=1, le=65535, description="SMTP port")
    smtp_from: str = Field("benchdash@localhost", description="Sender of notification e-mails")
    smtp_tls: Literal["auto", "starttls", "implicit", "off"] = Field(
        "auto",
        description="SMTP TLS, its certificate and host name verified: auto (implicit TLS on "
        "port 465, STARTTLS otherwise), starttls, implicit, or off (plain text)",
    )
    smtp_ca_file: Path | None = Field(
        None, description="CA bundle (PEM) the SMTP server's certificate is checked against "
        "(default: the system's)",
    )  # fmt: skip
    smtp_starttls: bool | None = Field(
        None, description="Deprecated: true means smtp_tls=starttls, false smtp_tls=off"
    )
    smtp_username: str | None = Field(None, description="SMTP login (optional)")
    smtp_password: str | None = Field(None, description="SMTP password (optional)")
    trusted_proxies: str = Field(
        "",
        description="Reverse proxies (addresses or CIDRs, comma-separated) whose X-Forwarded-For "
        "and X-Forwarded-Proto give the client address and scheme; no one else's are read",
    )
    host: str = "127.0.0.1"
    port: int = 8000

    @field_validator("trusted_proxies")
    @classmethod
    def _proxies_parse(cls, value: str) -> str:
        for item in proxy_list(value):
            try:
                ipaddress.ip_network(item, strict=False)
            except ValueError as e:
                msg = f"BENCHDASH_TRUSTED_PROXIES: {item!r} is no address or CIDR"
                raise ValueError(msg) from e
        return value

    @model_validator(mode="after")
    def _fail_fast_on_insecure_defaults(self) -> Settings:
        if self.environment == "production" and self.secret_key == INSECURE_SECRET:
            raise ValueError("BENCHDASH_SECRET_KEY must be set in production")
        return self


def smtp_tls_mode(settings: Settings) -> str:
    """How the SMTP connection is secured: starttls, implicit or off."""
    mode = settings.smtp_tls
    if mode == "auto" and settings.smtp_starttls is not None:  # the deprecated flag, if set
        mode = "starttls" if settings.smtp_starttls else "off"
    if mode == "auto":
        mode = "implicit" if settings.smtp_port == 465 else "starttls"
    return mode


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings (cached)."""
    return Settings()
