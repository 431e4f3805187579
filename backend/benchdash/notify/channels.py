"""Sending one delivery: a signed webhook, a Slack-compatible message, an e-mail.

Webhook signature (README "Notifications"): `Benchdash-Signature: t=<unix seconds>,v1=<hex>`
where hex = HMAC-SHA256(secret, f"{t}." + body); receivers recompute it, compare in constant
time, reject a `t` older than a few minutes (replays) and drop a `Benchdash-Delivery` id they
have already handled (the same delivery tried again after a crash).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import smtplib
import ssl
import time
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any

import httpx

from benchdash import __version__
from benchdash.config import Settings, smtp_tls_mode
from benchdash.notify import targets
from benchdash.notify.states import Channel


class DeliveryError(Exception):
    """The receiver did not take it (worth another try)."""


class PermanentFailure(DeliveryError):
    """The receiver said no for good (a 4xx but 408 and 429): not tried again."""


RETRYABLE_4XX = (408, 429)  # timeout and too many requests: try again later


@dataclass(frozen=True, kw_only=True)
class Outgoing:
    """One delivery, ready to send: where, with what secret, which id, what body."""

    channel: str
    target: str  # a webhook URL, a Slack URL (decrypted), an e-mail address
    secret: str | None  # the webhook's signing secret (decrypted)
    delivery_id: str
    body: dict[str, Any]


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The `Benchdash-Signature` header of `body` sent at `timestamp`."""
    mac = hmac.new(secret.encode(), str(timestamp).encode() + b"." + body, hashlib.sha256)
    return f"t={timestamp},v1={mac.hexdigest()}"


def slack_message(body: dict[str, Any]) -> dict[str, Any]:
    """A Slack-compatible incoming-webhook message: `text` (the fallback) and blocks."""
    context = f"benchdash · {body['event']} · delivery {body['id']}"
    blocks: list[dict[str, Any]] = [
        {"type": "header", "text": {"type": "plain_text", "text": body["title"][:150]}},
        {"type": "section", "text": {"type": "mrkdwn", "text": body["text"][:3000]}},
        {"type": "context", "elements": [{"type": "mrkdwn", "text": context}]},
    ]
    return {"text": body["text"], "blocks": blocks}


def _post(url: str, content: bytes, headers: dict[str, str], settings: Settings) -> None:
    """POST to the checked address of `url` (`notify.targets`; redirects are not followed)."""
    pinned = targets.check(url, allow_private=settings.notify_allow_private)
    extensions: dict[str, Any] = {}
    if pinned is not None:
        url, headers = pinned.url, {**headers, "Host": pinned.host_header}
        extensions["sni_hostname"] = pinned.server_name
    try:
        with httpx.Client(timeout=settings.notify_timeout_s) as client:
            r = client.post(url, content=content, headers=headers, extensions=extensions)
    except httpx.HTTPError as e:
        raise DeliveryError(f"{type(e).__name__}: {e}") from None
    if 400 <= r.status_code < 500 and r.status_code not in RETRYABLE_4XX:
        raise PermanentFailure(f"HTTP {r.status_code} (permanent, not retried): {r.text[:200]}")
    if not 200 <= r.status_code < 300:
        raise DeliveryError(f"HTTP {r.status_code}: {r.text[:200]}")


def _email(out: Outgoing, settings: Settings) -> None:
    if not settings.smtp_host:
        raise DeliveryError("no SMTP server configured (BENCHDASH_SMTP_HOST)")
    msg = EmailMessage()
    msg["From"] = settings.smtp_from
    msg["To"] = out.target
    msg["Subject"] = f"[benchdash] {out.body['title']}"
    msg["Message-ID"] = f"<{out.delivery_id}@benchdash>"  # the delivery id: dedup by it
    msg["Benchdash-Delivery"] = out.delivery_id
    msg.set_content(out.body["text"] + f"\n\n-- \nbenchdash · delivery {out.delivery_id}\n")
    mode = smtp_tls_mode(settings)
    host, port, timeout = settings.smtp_host, settings.smtp_port, settings.notify_timeout_s
    try:
        # Certificate and host name checked (Python's smtplib checks neither without a context).
        context = ssl.create_default_context(
            cafile=str(settings.smtp_ca_file) if settings.smtp_ca_file else None
        )
        smtp = (
            smtplib.SMTP_SSL(host, port, timeout=timeout, context=context)
            if mode == "implicit"
            else smtplib.SMTP(host, port, timeout=timeout)
        )
        with smtp:
            if mode == "starttls":
                smtp.starttls(context=context)
            if settings.smtp_username:
                smtp.login(settings.smtp_username, settings.smtp_password or "")
            smtp.send_message(msg)
    except (OSError, smtplib.SMTPException) as e:  # ssl errors are OSErrors
        raise DeliveryError(f"SMTP ({mode}): {type(e).__name__}: {e}") from None


def send(out: Outgoing, settings: Settings) -> None:
    """Deliver once, or raise DeliveryError saying why not."""
    agent = f"benchdash/{__version__}"
    if out.channel == Channel.EMAIL:
        _email(out, settings)
        return
    if out.channel == Channel.SLACK:
        content = json.dumps(slack_message(out.body)).encode()
        headers = {"Content-Type": "application/json", "User-Agent": agent}
        _post(out.target, content, headers, settings)
        return
    assert out.secret is not None, "a webhook subscription has a signing secret"
    content = json.dumps(out.body, separators=(",", ":")).encode()
    headers = {
        "Content-Type": "application/json",
        "User-Agent": agent,
        "Benchdash-Event": out.body["event"],
        "Benchdash-Delivery": out.delivery_id,
        "Benchdash-Signature": signature(out.secret, int(time.time()), content),
    }
    _post(out.target, content, headers, settings)
