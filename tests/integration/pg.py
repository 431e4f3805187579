"""A PostgreSQL cluster of a test's own (pgserver's binaries, in a temporary folder), which the
test may stop and restart without disturbing the server every other test shares."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pgserver

PG_BIN = Path(pgserver.__file__).parent / "pginstall" / "bin"


def free_port() -> int:
    """An unused loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Postgres:
    """A PostgreSQL cluster of our own, run as pgserver's system user when we are root."""

    def __init__(self, standby_of: Postgres | None = None) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="bd-pg-"))  # short: the socket lives here
        self.port = free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        self.user = "pgserver" if os.geteuid() == 0 else None
        if self.user:
            from pgserver.utils import ensure_prefix_permissions, ensure_user_exists

            ensure_user_exists(self.user)
            ensure_prefix_permissions(PG_BIN)
            shutil.chown(self.dir, self.user, self.user)
        if standby_of is None:
            self._pg("initdb", "-D", str(self.dir / "data"), "-U", "postgres", "--auth=trust")
        else:  # a streaming replica: a base backup that follows its primary (-R)
            primary = ["-h", "127.0.0.1", "-p", str(standby_of.port), "-U", "postgres"]
            self._pg("pg_basebackup", *primary, "-D", str(self.dir / "data"), "-R", "-X", "stream")

    def _pg(self, tool: str, *args: str) -> None:
        cmd = [str(PG_BIN / tool), *args]
        if self.user:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        with (self.dir / "pg_ctl.log").open("a") as out:  # never a pipe: postgres inherits it
            subprocess.run(cmd, check=True, stdout=out, stderr=out, timeout=120)

    def start(self) -> None:
        """Start the server and wait until it accepts connections."""
        opts = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1"
        data, log = str(self.dir / "data"), str(self.dir / "server.log")
        self._pg("pg_ctl", "-D", data, "-l", log, "-o", opts, "-w", "-t", "60", "start")

    def stop(self, mode: str = "fast") -> None:
        """Stop the server: every session ends, as in a real restart."""
        self._pg("pg_ctl", "-D", str(self.dir / "data"), "-m", mode, "-w", "stop")

    def restart(self, down_s: float = 3.0) -> None:
        """Stop, stay away `down_s` seconds, start again."""
        self.stop()
        time.sleep(down_s)
        self.start()

    def remove(self) -> None:
        """Stop the server if it runs and delete its folder."""
        with contextlib.suppress(subprocess.CalledProcessError):
            self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)
