"""Setting up a uvhttp benchmark run: CPU pinning, the two servers, tool versions.

The reference is nginx-light as a child of the driver: one process (`master_process off`,
one worker's work), `return 200 "OK"`, no access log, its prefix, config, logs and temp
folders all under OUT/nginx (nothing under / is read or written), on a free port.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from benchdash_runner import driving

MAX_REQUESTS = 1000  # per keep-alive connection, for both servers (nginx's default)
NGINX_CONF = """daemon off;
master_process off;
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/logs/error.log warn;
events {{ worker_connections 2048; }}
http {{
    access_log off;
    keepalive_requests {max_requests};
    keepalive_timeout 60s;
    client_body_temp_path {prefix}/tmp/body;
    proxy_temp_path {prefix}/tmp/proxy;
    fastcgi_temp_path {prefix}/tmp/fastcgi;
    uwsgi_temp_path {prefix}/tmp/uwsgi;
    scgi_temp_path {prefix}/tmp/scgi;
    server {{
        listen 127.0.0.1:{port};
        location / {{ default_type text/plain; return 200 "OK"; }}
    }}
}}
"""
_LISTENING = re.compile(r"listening on http://127\.0\.0\.1:(\d+)")


def nginx_config(prefix: Path, port: int) -> str:
    """nginx.conf of the reference: everything under `prefix`."""
    return NGINX_CONF.format(prefix=prefix, port=port, max_requests=MAX_REQUESTS)


def cpu_split(no_pin: bool) -> tuple[list[str], list[str], dict[str, str]]:
    """taskset prefixes for the servers (first allowed CPU) and for wrk (the others)."""
    cpus = sorted(os.sched_getaffinity(0))
    if no_pin or len(cpus) < 2 or shutil.which("taskset") is None:
        return [], [], {"pinning": "none"}
    server, client = str(cpus[0]), ",".join(map(str, cpus[1:]))
    pins = {"pinning": "taskset", "server_cpus": server, "wrk_cpus": client}
    return ["taskset", "-c", server], ["taskset", "-c", client], pins


def free_port() -> int:
    """A port that was free a moment ago on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _text(path: Path) -> str:
    return path.read_text(errors="replace") if path.exists() else ""


def wait_ready(drv: driving.Driver, url: str, child: subprocess.Popen[str], log: Path) -> None:
    """Wait until `url` answers 200, or fail naming the server's log."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and child.poll() is None:
        try:
            with urllib.request.urlopen(url, timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    drv.fail(f"no answer on {url} (exit {child.poll()}): {_text(log)[-800:]}")


def listening_port(drv: driving.Driver, log: Path, child: subprocess.Popen[str]) -> int:
    """The port performance_test printed once listening (it was started with --port 0)."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and child.poll() is None:
        if m := _LISTENING.search(_text(log)):
            return int(m.group(1))
        time.sleep(0.05)
    drv.fail(f"performance_test did not start: {_text(log)[-800:]}")


@dataclass(frozen=True)
class Server:
    """A running server: its process (pid sampled from /proc) and base URL."""

    name: str
    pid: int
    url: str


@contextlib.contextmanager
def servers(drv: driving.Driver, binary: Path, pin: list[str]) -> Iterator[tuple[Server, Server]]:
    """performance_test and the nginx reference, ready, stopped on every exit path."""
    ours_log, prefix = drv.out / "performance_test.log", drv.out / "nginx"
    for sub in ("logs", "tmp"):
        (prefix / sub).mkdir(parents=True, exist_ok=True)
    port = free_port()
    (prefix / "nginx.conf").write_text(nginx_config(prefix, port))
    ours_cmd = [*pin, str(binary), "--port", "0", "--max-requests", str(MAX_REQUESTS)]
    ngx_log = prefix / "logs" / "error.log"
    ngx_cmd = [
        *pin,
        "nginx",
        "-p",
        str(prefix),
        "-c",
        str(prefix / "nginx.conf"),
        "-e",
        str(ngx_log),
    ]
    with (
        drv.background(ours_cmd, log_path=ours_log) as ours,
        drv.background(ngx_cmd, log_path=prefix / "logs" / "stdout.log") as ngx,
    ):
        ours_url = f"http://127.0.0.1:{listening_port(drv, ours_log, ours)}"
        wait_ready(drv, ours_url + "/", ours, ours_log)
        wait_ready(drv, f"http://127.0.0.1:{port}/", ngx, ngx_log)
        yield (
            Server("uvhttp", ours.pid, ours_url),
            Server("nginx", ngx.pid, f"http://127.0.0.1:{port}"),
        )


def compiler(build: Path) -> tuple[str | None, str | None]:
    """The C compiler CMake used (id and version), from its compiler test's cache."""
    for path in build.glob("CMakeFiles/*/CMakeCCompiler.cmake"):
        text = path.read_text()
        cid = re.search(r'set\(CMAKE_C_COMPILER_ID "([^"]*)"\)', text)
        ver = re.search(r'set\(CMAKE_C_COMPILER_VERSION "([^"]*)"\)', text)
        return (cid.group(1) if cid else None), (ver.group(1) if ver else None)
    return None, None


def tool_version(drv: driving.Driver, cmd: list[str], pattern: str) -> str | None:
    """A version number from a tool's banner (nginx -v, wrk -v)."""
    _, out = drv.run(cmd, echo=False)
    m = re.search(pattern, out)
    return m.group(1) if m else None
