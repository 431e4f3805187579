"""E-mail over TLS to a local aiosmtpd server with a certificate made here: the certificate
is verified (refused without its CA, taken with it), by STARTTLS and by implicit TLS."""

from __future__ import annotations

import datetime as dt
import ipaddress
import socket
import ssl
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from fastapi.testclient import TestClient
from sqlalchemy import text

from benchdash.config import Settings, get_settings, smtp_tls_mode
from benchdash.notify import channels
from tests.fixtures.api import post
from tests.fixtures.factories import auth, document, metric, token


class Inbox:
    def __init__(self) -> None:
        self.envelopes: list[Any] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.envelopes.append(envelope)
        return "250 OK"


def _name(cn: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A CA and a server certificate for 127.0.0.1 it signed, as PEM files."""
    out = tmp_path_factory.mktemp("pki")
    now = dt.datetime.now(dt.UTC)
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca = (
        x509.CertificateBuilder().subject_name(_name("test CA")).issuer_name(_name("test CA"))
        .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(hours=1)).not_valid_after(now + dt.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(ca_key, hashes.SHA256())
    )  # fmt: skip
    leaf = (
        x509.CertificateBuilder().subject_name(_name("127.0.0.1")).issuer_name(ca.subject)
        .public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(hours=1)).not_valid_after(now + dt.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )  # fmt: skip
    files = {"ca": out / "ca.pem", "cert": out / "cert.pem", "key": out / "key.pem"}
    files["ca"].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    files["cert"].write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
    files["key"].write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return files


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(params=["starttls", "implicit"])
def server(
    request: pytest.FixtureRequest, pki: dict[str, Path]
) -> Iterator[tuple[str, int, Inbox]]:
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.load_cert_chain(pki["cert"], pki["key"])
    inbox, port = Inbox(), _free_port()
    if request.param == "implicit":
        smtp = Controller(inbox, hostname="127.0.0.1", port=port, ssl_context=ctx)
    else:
        smtp = Controller(
            inbox, hostname="127.0.0.1", port=port, tls_context=ctx, require_starttls=True
        )
    smtp.start()
    try:
        yield request.param, port, inbox
    finally:
        smtp.stop()


def _send(settings: Settings) -> None:
    out = channels.Outgoing(
        channel="email",
        target="ops@example.test",
        secret=None,
        delivery_id="00000000-0000-0000-0000-000000000001",
        body={"title": "Run #1 failed", "text": "it failed"},
    )
    channels.send(out, settings)


def test_tls_is_verified_against_the_named_ca(
    server: tuple[str, int, Inbox], pki: dict[str, Path]
) -> None:
    mode, port, inbox = server
    base: dict[str, Any] = {"smtp_host": "127.0.0.1", "smtp_port": port, "smtp_tls": mode}
    with pytest.raises(channels.DeliveryError, match="CERTIFICATE_VERIFY_FAILED"):
        _send(Settings(**base))  # the system's CAs do not know this one
    assert inbox.envelopes == []
    _send(Settings(**base, smtp_ca_file=pki["ca"]))
    (envelope,) = inbox.envelopes
    assert envelope.rcpt_tos == ["ops@example.test"]


def test_starttls_on_587_implicit_on_465_unless_told() -> None:
    assert smtp_tls_mode(Settings(smtp_port=587)) == "starttls"  # on by default on 587
    assert smtp_tls_mode(Settings(smtp_port=465)) == "implicit"
    assert smtp_tls_mode(Settings(smtp_port=25, smtp_tls="off")) == "off"
    assert smtp_tls_mode(Settings(smtp_port=587, smtp_starttls=False)) == "off"  # deprecated
    assert smtp_tls_mode(Settings(smtp_port=465, smtp_starttls=True)) == "starttls"


def test_an_email_subscription_needs_an_smtp_server(
    client: TestClient, session: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BENCHDASH_SMTP_HOST")
    get_settings.cache_clear()
    try:
        admin = auth(token(session, "uvhttp", scope="admin"))
        post(client, auth(token(session, "uvhttp")), document(metric(value=100.0), at=0))
        body = {"system": "uvhttp", "name": "m", "channel": "email", "target": "ops@example.com"}
        r = client.post("/api/v1/notifications/subscriptions", json=body, headers=admin)
        assert r.status_code == 422, r.text
        assert "e-mail is not configured on this server" in r.json()["detail"]
        mine = {"system": "uvhttp", "address": "me@example.com", "events": ["run.failed"]}
        r = client.post("/api/v1/notifications/subscriptions/mine", json=mine, headers=admin)
        assert r.status_code in (403, 422), r.text  # a token has no mailbox; a user: 422
        count = session.execute(text("SELECT count(*) FROM notify_subscription")).scalar()
        assert count == 0
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()
