"""SSRF: webhook and Slack targets on loopback, link-local (cloud metadata), private and other
non-public addresses are refused when subscribing (422, nothing stored) and again at delivery
after resolving the host (failed at once, nothing sent); BENCHDASH_NOTIFY_ALLOW_PRIVATE=1 lifts
the rule (the other notification tests run with it, for their local receivers)."""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from benchdash.config import Settings, get_settings
from benchdash.notify import targets
from tests.fixtures.api import post
from tests.fixtures.factories import auth, document, metric, token
from tests.fixtures.receiver import Receiver, serve
from tests.notify.live import delivering, live

SUBS = "/api/v1/notifications/subscriptions"
REFUSED = [
    "127.0.0.1", "127.8.9.1", "::1", "169.254.169.254", "fe80::1", "10.1.2.3", "172.16.0.9",
    "192.168.1.1", "fd00:ec2::254", "100.64.0.1", "0.0.0.0", "::", "224.0.0.1", "240.0.0.1",
    "::ffff:127.0.0.1", "::ffff:169.254.169.254", "2002:a00:1::",
]  # fmt: skip
PUBLIC = ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"]


@pytest.fixture
def strict(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("BENCHDASH_NOTIFY_ALLOW_PRIVATE", "0")
    get_settings.cache_clear()
    yield
    monkeypatch.undo()
    get_settings.cache_clear()


def test_the_address_rules_follow_ipaddress() -> None:
    for raw in REFUSED:
        assert targets.refusal(ipaddress.ip_address(raw)) is not None, raw
    for raw in PUBLIC:
        assert targets.refusal(ipaddress.ip_address(raw)) is None, raw
    assert "metadata" in str(targets.refusal(ipaddress.ip_address("169.254.169.254")))
    assert targets.check("http://127.0.0.1:9/h", allow_private=True) is None
    for bad in ("http://x.test:99999/h", "http://x.test:port/h", "http://[::1/h", "http://:80/"):
        with pytest.raises(targets.TargetRefused):
            targets.check(bad, allow_private=False)
    with pytest.raises(targets.TargetRefused, match="does not resolve"):
        targets.check("https://no-such-host.invalid/h", allow_private=False)
    with pytest.raises(targets.TargetRefused, match="loopback"):
        targets.check("http://localhost:8080/h", allow_private=False)  # resolved, then judged
    pinned = targets.check("https://u:p@93.184.216.34:8443/h?x=1", allow_private=False)
    assert pinned == targets.Pinned(
        url="https://u:p@93.184.216.34:8443/h?x=1",
        host_header="93.184.216.34:8443",
        server_name="93.184.216.34",
    )


def _counts(session: Session) -> tuple[int, int]:
    q = "SELECT (SELECT count(*) FROM notify_subscription), (SELECT count(*) FROM audit_event)"
    row = session.execute(text(q)).one()
    return int(row[0]), int(row[1])


def test_subscribing_a_private_target_is_refused_with_422(
    client: TestClient, session: Session, strict: None
) -> None:
    admin = auth(token(session, "uvhttp", scope="admin"))
    post(client, auth(token(session, "uvhttp")), document(metric(value=100.0), at=0))
    before = _counts(session)
    for channel, target in [
        ("webhook", "http://127.0.0.1:9/hook"),
        ("webhook", "http://169.254.169.254/latest/meta-data/"),
        ("webhook", "http://localhost:8080/hook"),
        ("webhook", "http://[::ffff:10.0.0.1]/hook"),
        ("slack", "https://10.0.0.7/services/T1/B2/xyz"),
        ("webhook", "https://no-such-host.invalid/hook"),
    ]:
        body = {"system": "uvhttp", "name": "x", "channel": channel, "target": target}
        r = client.post(SUBS, json=body, headers=admin)
        assert r.status_code == 422, (target, r.text)
        assert r.headers["content-type"] == "application/problem+json"
        assert r.json()["detail"].startswith("target: ")
    assert _counts(session) == before
    mail = {"system": "uvhttp", "name": "m", "channel": "email", "target": "ops@example.com"}
    assert client.post(SUBS, json=mail, headers=admin).status_code == 201  # SMTP: the server's


def test_a_delivery_to_a_private_address_is_refused_after_resolving_and_not_retried(
    engine: Engine,
) -> None:
    receiver = Receiver(secret="whsec_x")
    server = serve(receiver)
    host_url = receiver.url.replace("127.0.0.1", "localhost")  # a name: resolved at delivery
    with live(engine) as world:
        world.subscribe("webhook", host_url, "whsec_x")
        world.fail_run(3)
        strict = Settings(notify_backoff_s=0.2, notify_allow_private=False)
        with delivering(world, strict):
            deadline = time.monotonic() + 30
            while world.deliveries()[0].status != "failed":
                assert time.monotonic() < deadline, "timed out"
                time.sleep(0.05)
        (d,) = world.deliveries()
        assert d.attempts == 1 and (d.last_error or "").startswith(
            "refused: localhost is a loopback"
        )
        assert receiver.requests == []
    server.shutdown()
