"""Deliveries through the real job queue to local receivers: a webhook whose receiver checks
the signature, a receiver answering 500 three times (retried with growing waits until it
takes it), a Slack-compatible receiver, and an SMTP server (aiosmtpd) receiving the e-mail."""

from __future__ import annotations

import email
import itertools
import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy.engine import Engine

from benchdash.config import Settings
from tests.fixtures.receiver import Receiver, serve
from tests.notify.live import Live, delivering, live

SECRET = "whsec_test-secret-for-the-receiver"


@pytest.fixture
def world(engine: Engine) -> Iterator[Live]:
    with live(engine) as w:
        yield w


def until(done: Callable[[], bool], timeout: float = 30) -> None:
    """Wait until `done()`, failing after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def _settings(**extra: Any) -> Settings:
    return Settings(notify_backoff_s=0.2, notify_stalled_s=2.0, **extra)


def test_a_signed_webhook_is_verified_by_its_receiver(world: Live) -> None:
    good, bad = Receiver(secret=SECRET), Receiver(secret="whsec_another-secret")
    servers = [serve(good), serve(bad)]
    world.subscribe("webhook", good.url, SECRET)
    world.subscribe("webhook", bad.url, SECRET)  # its receiver knows another secret
    world.fail_run(7)
    with delivering(world, _settings()):
        good.wait_for(1)
        until(lambda: any(d.status == "failed" for d in world.deliveries()))
    delivered, refused = world.deliveries()
    if refused.status == "delivered":
        delivered, refused = refused, delivered
    body = good.handled[str(delivered.id)]
    assert body["id"] == str(delivered.id) and body["event"] == "run.failed"
    assert body["run"]["id"] == 7 and "heartbeats" in body["text"]
    assert delivered.status == "delivered" and delivered.attempts == 1
    assert good.rejected == [] and good.duplicates == []
    assert refused.status == "failed" and (refused.last_error or "").startswith("HTTP 401")
    assert refused.attempts == 1 and len(bad.rejected) == 1  # a 4xx is not tried again
    assert bad.handled == {}
    for s in servers:
        s.shutdown()


@pytest.mark.parametrize("status", [410, 404, 400])
def test_a_permanent_refusal_is_tried_once_and_says_so(world: Live, status: int) -> None:
    gone = Receiver(fail_first=5, fail_status=status)
    server = serve(gone)
    world.subscribe("webhook", gone.url, SECRET)
    world.fail_run(8)
    with delivering(world, _settings()):
        until(lambda: world.deliveries()[0].status == "failed")
        time.sleep(1.0)  # any retry (0.2 s backoff) would have come by now
    (d,) = world.deliveries()
    assert d.attempts == 1 and len(gone.requests) == 1
    assert (d.last_error or "").startswith(f"HTTP {status} (permanent, not retried)")
    server.shutdown()


def test_429_is_retried_until_taken(world: Live) -> None:
    busy = Receiver(fail_first=1, fail_status=429)
    server = serve(busy)
    world.subscribe("webhook", busy.url, SECRET)
    world.fail_run(9)
    with delivering(world, _settings()):
        busy.wait_for(1)
        until(lambda: world.deliveries()[0].status == "delivered")
    assert world.deliveries()[0].attempts == 2
    server.shutdown()


def test_a_receiver_answering_500_three_times_is_retried_until_it_succeeds(world: Live) -> None:
    flaky = Receiver(secret=SECRET, fail_first=3)
    server = serve(flaky)
    world.subscribe("webhook", flaky.url, SECRET)
    world.fail_run(8)
    with delivering(world, _settings()):
        flaky.wait_for(1)
    (d,) = world.deliveries()
    assert d.status == "delivered" and d.attempts == 4 and d.last_error is None
    assert d.delivered_at is not None
    assert [r["delivery"] for r in flaky.requests] == [str(d.id)] * 4  # one id, four tries
    at = [r["at"] for r in flaky.requests]
    gaps = [b - a for a, b in itertools.pairwise(at)]
    assert all(g >= w * 0.9 for g, w in zip(gaps, (0.2, 0.4, 0.8), strict=True)), gaps
    assert gaps[2] > gaps[0], f"the waits grow: {gaps}"
    server.shutdown()


def test_a_slack_compatible_receiver_gets_text_and_blocks(world: Live) -> None:
    slack = Receiver()
    server = serve(slack)
    world.subscribe("slack", slack.url, slack.url)  # the URL is the stored secret
    world.fail_run(9)
    with delivering(world, _settings()):
        slack.wait_for(1)
    (body,) = slack.handled.values()
    assert set(body) == {"text", "blocks"} and "Run #9" in body["text"]
    assert [b["type"] for b in body["blocks"]] == ["header", "section", "context"]
    assert "signature" not in str(slack.requests[0]).lower()
    server.shutdown()


class _Inbox:
    def __init__(self) -> None:
        self.envelopes: list[Any] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.envelopes.append(envelope)
        return "250 OK"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_email_reaches_a_local_smtp_server(world: Live) -> None:
    inbox = _Inbox()
    port = _free_port()
    smtp = Controller(inbox, hostname="127.0.0.1", port=port)
    smtp.start()
    try:
        world.subscribe("email", "ops@example.test")
        world.fail_run(10)
        settings = _settings(
            smtp_host="127.0.0.1", smtp_port=port, smtp_from="bd@example.test", smtp_tls="off"
        )
        with delivering(world, settings):
            until(lambda: world.deliveries()[0].status == "delivered")
    finally:
        smtp.stop()
    (d,) = world.deliveries()
    (envelope,) = inbox.envelopes
    assert envelope.mail_from == "bd@example.test" and envelope.rcpt_tos == ["ops@example.test"]
    msg = email.message_from_bytes(envelope.content)
    assert msg["Subject"].startswith("[benchdash] Run #10 of ")
    assert msg["Message-ID"] == f"<{d.id}@benchdash>"
    assert "heartbeats" in msg.get_payload()
