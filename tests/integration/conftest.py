"""A real API process on a scratch database for the whole session."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.integration.pg import Postgres, free_port
from tests.integration.procs import spawn, stop

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
SERVER = str(BIN / "benchdash-server")
CLIENT = str(BIN / "benchdash")


@dataclass(frozen=True)
class Api:
    """A running API: its URL, its database and an all-systems admin token."""

    url: str
    database_url: str
    token: str

    def cli(self, *args: str) -> str:
        """Run a server CLI command against this API's database."""
        out = subprocess.run(
            [SERVER, *args],
            env={**os.environ, "DATABASE_URL": self.database_url},
            capture_output=True,
            text=True,
            check=True,
        )
        return out.stdout.strip()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    """Start `benchdash-server serve` on a fresh, migrated database."""
    name = f"benchdash_it_{os.getpid()}"
    db = subprocess.run(
        [SERVER, "scratch-db", name], capture_output=True, text=True, check=True
    ).stdout.strip()
    env = {**os.environ, "DATABASE_URL": db, "BENCHDASH_ADMIN_PASSWORD": "it-admin-pass"}
    env["BENCHDASH_SCHEDULE_GRACE_S"] = "0"  # no cron run of a manifest lands mid-test
    subprocess.run([SERVER, "migrate"], env=env, check=True, capture_output=True)
    port = _free_port()
    log = tmp_path_factory.mktemp("api") / "api.log"
    with log.open("w") as out:
        proc = spawn(
            [SERVER, "serve", "--no-migrate", "--host", "127.0.0.1", "--port", str(port)],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url + "/readyz", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError(f"the API did not start:\n{log.read_text()}") from None
                time.sleep(0.2)
        token = subprocess.run(
            [SERVER, "token", "create", "--scope", "admin", "--name", "integration"],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        yield Api(url=url, database_url=db, token=token)
    finally:
        stop(proc)
        subprocess.run([SERVER, "scratch-db", "--drop", name], capture_output=True, check=False)


def start_server(env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    """`benchdash-server serve` (migrated already) on a free port, once /readyz answers; the
    caller stops the process."""
    port = free_port()
    proc = spawn(
        [SERVER, "serve", "--no-migrate", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while not ready(Api(url=url, database_url="", token="")):
        if time.monotonic() > deadline or proc.poll() is not None:
            stop(proc, timeout=0)
            raise RuntimeError(f"the API did not start on {url}")
        time.sleep(0.2)
    return proc, url


def ready(api: Api) -> bool:
    with contextlib.suppress(OSError), urllib.request.urlopen(api.url + "/readyz", timeout=2) as r:
        return bool(r.status == 200)
    return False


@pytest.fixture(scope="module")
def private_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, Postgres]]:
    """A PostgreSQL of the module's own, migrated, and an API on it with an admin token."""
    pg = Postgres()
    api_proc = None
    try:
        pg.start()
        env = {**os.environ, "DATABASE_URL": pg.url, "BENCHDASH_ADMIN_PASSWORD": "it-admin-pass"}
        env["BENCHDASH_SCHEDULE_GRACE_S"] = "0"
        subprocess.run([SERVER, "migrate"], env=env, check=True, capture_output=True)
        token = subprocess.run(
            [SERVER, "token", "create", "--scope", "admin", "--name", "survive"],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        port = free_port()
        log = (tmp_path_factory.mktemp("api") / "api.log").open("w")
        api_proc = spawn(
            [SERVER, "serve", "--no-migrate", "--host", "127.0.0.1", "--port", str(port)],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        api = Api(url=f"http://127.0.0.1:{port}", database_url=pg.url, token=token)
        deadline = time.monotonic() + 60
        while not ready(api):
            if time.monotonic() > deadline or api_proc.poll() is not None:
                raise RuntimeError(f"the API did not start: see {log.name}")
            time.sleep(0.2)
        yield api, pg
    finally:
        if api_proc is not None:
            stop(api_proc)
        pg.remove()
