"""The API behind a real nginx that it trusts (BENCHDASH_TRUSTED_PROXIES): sign-in throttling
keys on each client's real address, so one client guessing at `admin` never keeps the real admin
out from another, and the API's log shows both addresses, not the proxy's."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.integration.conftest import SERVER, Api, ready
from tests.integration.pg import free_port

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
A, B = "127.0.0.2", "127.0.0.3"  # two client addresses (all of 127/8 is loopback on Linux)
PASSWORD = "it-admin-pass"
LOGIN = "/api/v1/auth/login"

CONF = """
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log;
events {{ worker_connections 64; }}
http {{
    access_log {tmp}/access.log;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://127.0.0.1:{api_port};
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
        }}
    }}
}}
"""


@pytest.fixture(scope="module")
def behind_nginx(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    if not Path(NGINX).exists():
        pytest.fail("nginx is not installed (scripts/ensure-deps test installs it)")
    tmp = tmp_path_factory.mktemp("nginx")
    name = f"benchdash_it_proxy_{os.getpid()}"
    db = subprocess.run(
        [SERVER, "scratch-db", name], capture_output=True, text=True, check=True
    ).stdout.strip()
    env = {
        "PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", str(tmp)),
        "DATABASE_URL": db, "BENCHDASH_ADMIN_PASSWORD": PASSWORD, "BENCHDASH_WORKERS": "1",
        "BENCHDASH_SCHEDULE_GRACE_S": "0", "BENCHDASH_TRUSTED_PROXIES": "127.0.0.1",
        "BENCHDASH_NOTIFY_WORKER": "0",
    }  # fmt: skip
    subprocess.run([SERVER, "migrate"], env=env, check=True, capture_output=True)
    api_port, port = free_port(), free_port()
    log = tmp / "api.log"
    with log.open("w") as out:
        api = subprocess.Popen(
            [SERVER, "serve", "--no-migrate", "--host", "127.0.0.1", "--port", str(api_port)],
            env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    (tmp / "nginx.conf").write_text(CONF.format(tmp=tmp, port=port, api_port=api_port))
    nginx = subprocess.Popen(
        [NGINX, "-p", str(tmp), "-e", str(tmp / "error.log"), "-c", str(tmp / "nginx.conf"),
         "-g", "daemon off;"],
        env={"PATH": os.environ["PATH"]}, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        url = f"http://127.0.0.1:{port}"
        while not ready(Api(url=url, database_url="", token="")):
            assert api.poll() is None and nginx.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "API or nginx did not start"
            time.sleep(0.2)
        yield url, log
    finally:
        for proc in (nginx, api):
            proc.terminate()
            proc.wait(timeout=20)
        subprocess.run([SERVER, "scratch-db", "--drop", name], capture_output=True, check=False)


def _client(url: str, source: str) -> httpx.Client:
    return httpx.Client(base_url=url, transport=httpx.HTTPTransport(local_address=source))


def _login(c: httpx.Client, password: str) -> int:
    r = c.post(LOGIN, json={"username": "admin", "password": password})
    return r.status_code


def test_guesses_from_one_address_leave_the_admin_in_from_another(
    behind_nginx: tuple[str, Path],
) -> None:
    url, log = behind_nginx
    with _client(url, A) as attacker, _client(url, B) as admin:
        codes = [_login(attacker, f"guess-{i}") for i in range(25)]
        assert codes[:5] == [401] * 5 and codes[-1] == 429, codes
        # Guess on (each admitted guess doubles the wait) until the address must wait 4 s+.
        deadline = time.monotonic() + 60
        while True:
            r = attacker.post(LOGIN, json={"username": "admin", "password": "guess"})
            if r.status_code == 429 and int(r.headers["retry-after"]) >= 4:
                break
            assert time.monotonic() < deadline, "the wait never grew"
            time.sleep(0.5)
        throttled_at = time.monotonic()
        assert _login(admin, PASSWORD) == 200  # at once, from an address that never failed
        assert time.monotonic() - throttled_at < 3
        assert _login(attacker, PASSWORD) == 429  # the guessing address waits, right or wrong
    text = log.read_text()
    lines = [line for line in text.splitlines() if "/api/v1/auth/login" in line]
    assert any(f"{A}:" in line and " 429" in line for line in lines), text[-2000:]
    assert any(f"{B}:" in line and " 200" in line for line in lines), text[-2000:]
    assert not any("127.0.0.1:" in line for line in lines)  # never the proxy's address
    assert " 500" not in text
