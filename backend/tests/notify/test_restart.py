"""The API process killed in the middle of a delivery: after it starts again, every delivery
arrives, and the one it was sending arrives again with the same delivery id, which the receiver
drops (it had handled it; the sender died before hearing the 200). Nothing lost, nothing
handled twice. A real `benchdash-server serve` on a scratch database, killed with SIGKILL."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from benchdash.auth import service as auth_service
from tests.fixtures.receiver import Receiver, serve
from tests.test_migrations import migrate, scratch_database

SERVER = str(Path(sys.executable).parent / "benchdash-server")


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Api:
    """`benchdash-server serve` on a database, started and killed at will."""

    def __init__(self, url: str, log: Path) -> None:
        self.env = {
            **os.environ,
            "DATABASE_URL": url,
            "BENCHDASH_WORKERS": "1",
            "BENCHDASH_NOTIFY_WORKER": "1",
            "BENCHDASH_NOTIFY_STALLED_S": "2",
            "BENCHDASH_NOTIFY_BACKOFF_S": "0.3",
        }
        self.port, self.log, self.proc = _port(), log, None
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        with self.log.open("a") as out:
            self.proc = subprocess.Popen(
                [SERVER, "serve", "--no-migrate", "--host", "127.0.0.1", "--port", str(self.port)],
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(self.url + "/readyz", timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                assert time.monotonic() < deadline, self.log.read_text()
                time.sleep(0.2)

    def kill(self) -> None:
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)


@pytest.fixture
def scratch(engine: Engine) -> Iterator[Engine]:
    with scratch_database(engine, "notify") as db:
        migrate(db, "head")
        yield db


def test_a_restart_mid_delivery_loses_nothing_and_duplicates_nothing(
    scratch: Engine, tmp_path: Path
) -> None:
    with Session(scratch) as s:
        s.execute(text("INSERT INTO system (slug, name, created_at) VALUES ('s1', 's1', now())"))
        _, token = auth_service.create_token(session=s, name="t", scopes=["admin"], systems=[])
        s.commit()
    admin = {"Authorization": f"Bearer {token}"}
    receiver = Receiver(hold_first=True)
    server = serve(receiver)
    api = Api(scratch.url.render_as_string(hide_password=False), tmp_path / "api.log")
    api.start()
    try:
        subs = f"{api.url}/api/v1/notifications/subscriptions"
        body = {"system": "s1", "name": "hook", "channel": "webhook", "target": receiver.url}
        r = httpx.post(subs, json=body, headers=admin)
        assert r.status_code == 201, r.text
        sub, receiver.secret = r.json()["id"], r.json()["secret"]
        sent = [httpx.post(f"{subs}/{sub}/test", headers=admin).json()["id"] for _ in range(3)]
        assert receiver.holding.wait(30), "the first delivery never arrived"
        api.kill()  # in the middle of sending the first one
        receiver.release.set()
        with Session(scratch) as s:
            states = dict(s.execute(text("SELECT id::text, status FROM notify_delivery")).all())
        assert sorted(states.values()) == ["pending", "pending", "sending"], states
        api.start()
        receiver.wait_for(3, timeout=60)
        deadline = time.monotonic() + 30
        while True:
            with Session(scratch) as s:
                rows = s.execute(
                    text("SELECT id::text, status, attempts FROM notify_delivery")
                ).all()
            if all(status == "delivered" for _, status, _ in rows):
                break
            assert time.monotonic() < deadline, rows
            time.sleep(0.2)
    finally:
        receiver.release.set()
        if api.proc is not None and api.proc.poll() is None:
            api.kill()
        server.shutdown()
    assert sorted(receiver.handled) == sorted(sent)  # nothing lost
    interrupted = next(i for i, status in states.items() if status == "sending")
    assert receiver.duplicates == [interrupted]  # sent again, with the same id: dropped
    assert {i: n for i, _, n in rows} == {i: 2 if i == interrupted else 1 for i in sent}
    assert receiver.rejected == [], "every request carried a valid signature"
