"""Docker and Compose for `make up` / `make down` (scripts/up.py): is an engine there, which
Compose (the v2 plugin, else Debian's v1 `docker-compose`), and the variables it reads."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
from collections.abc import Callable, Iterable
from pathlib import Path

import fleet

PROJECT = "benchdash"  # the Compose project (no top-level `name:`: v1 does not know it)


def docker_available() -> bool:
    """Whether a Docker engine answers (the client alone is not enough)."""
    if shutil.which("docker") is None:
        return False
    probe = subprocess.run(["docker", "info"], capture_output=True, timeout=20, check=False)
    return probe.returncode == 0


def compose_command() -> list[str] | None:
    """The Compose that is here: the v2 plugin (`docker compose`), else v1 `docker-compose`."""
    if shutil.which("docker"):
        v2 = subprocess.run(["docker", "compose", "version"], capture_output=True, check=False)
        if v2.returncode == 0:
            return ["docker", "compose"]
    return ["docker-compose"] if shutil.which("docker-compose") else None


def compose_env(
    root: Path, data: Path, kept_secret: Callable[[str], str], systems: Iterable[str]
) -> Path:
    """`.env` when the user wrote one, else `.data/compose.env` with secrets made once; an
    agent token is added for each system that has none yet (one token per runner agent), and
    the agents' database password."""
    if (root / ".env").exists():
        return root / ".env"
    path = data / "compose.env"
    if not path.exists():
        data.mkdir(parents=True, exist_ok=True)
        path.write_text(
            f"BENCHDASH_SECRET_KEY={secrets.token_urlsafe(32)}\n"
            f"BENCHDASH_ADMIN_PASSWORD={kept_secret('admin-password')}\n"
        )
        path.chmod(0o600)
    have = path.read_text()
    wanted = {fleet.token_variable(s): fleet.new_token for s in systems}
    lines = "".join(f"{k}={make()}\n" for k, make in wanted.items() if f"\n{k}=" not in f"\n{have}")
    if lines:  # what a file made by an older `make up` lacks
        path.write_text(have + ("" if have.endswith("\n") or not have else "\n") + lines)
    return path


def down(pids: Path, server: Path, root: Path) -> int:
    """`make down`: stop a stack left running (native processes, embedded PostgreSQL, Compose)."""
    if pids.exists():
        for pid in (int(p) for p in pids.read_text().split() if p.isdigit()):
            try:
                os.kill(pid, signal.SIGTERM)
                print(f"stopped process {pid}")
            except ProcessLookupError:
                pass
        pids.unlink()
    if not os.environ.get("DATABASE_URL") and server.exists():
        subprocess.run([str(server), "db-stop"], check=False)
    compose = compose_command() if docker_available() else None
    if compose is not None:
        subprocess.run([*compose, "-p", PROJECT, "down"], cwd=root, check=False)
    return 0
