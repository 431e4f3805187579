"""The Docker engine and Compose the harness drives: started if needed, stopped if we started it."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import IO

ROOT = Path(__file__).resolve().parents[2]


class Unavailable(Exception):
    """Docker cannot be used here; the message says why and what to do."""


def launcher() -> ModuleType:
    """scripts/up.py, whose Compose detection `make up` uses too."""
    spec = importlib.util.spec_from_file_location("benchdash_up", ROOT / "scripts" / "up.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def install_missing(compose_found: bool) -> None:
    """As root with apt: install what is missing of the engine, Compose v1 and debootstrap (the
    stand-ins need it); elsewhere stop, naming the command, when the engine or Compose lacks."""
    wanted = []
    if not (shutil.which("docker") and _answers()) and shutil.which("dockerd") is None:
        wanted.append("docker.io")
    if not compose_found:
        wanted.append("docker-compose")
    root = os.geteuid() == 0 and shutil.which("apt-get") is not None
    if shutil.which("debootstrap") is None and root:
        wanted.append("debootstrap")
    if not wanted:
        return
    command = f"apt-get install -y --no-install-recommends {' '.join(wanted)}"
    if not root:
        raise Unavailable(f"missing {', '.join(wanted)}: run `{command}` as root")
    print(f"test-compose: {command}", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for step in (["apt-get", "update", "-qq"], [*command.split(), "-qq"]):
        done = subprocess.run(step, env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise Unavailable(f"`{' '.join(step)}` failed:\n{done.stderr[-2000:]}")


def _answers() -> bool:
    probe = subprocess.run(["docker", "info"], capture_output=True, timeout=30, check=False)
    return probe.returncode == 0


@contextmanager
def engine(logs: Path) -> Iterator[bool]:
    """A Docker engine that answers for the block; yields whether we started it (and stop it)."""
    if shutil.which("docker") and _answers():
        yield False
        return
    if os.geteuid() != 0 or shutil.which("dockerd") is None:
        raise Unavailable("no Docker engine answers and dockerd cannot be started (needs root)")
    log = (logs / "dockerd.log").open("ab")
    proc = subprocess.Popen(
        ["dockerd"], stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 60
        while not _answers():
            if proc.poll() is not None or time.monotonic() > deadline:
                raise Unavailable(f"dockerd did not start; its log: {logs / 'dockerd.log'}")
            time.sleep(0.5)
        print(f"test-compose: started dockerd (pid {proc.pid}, log {log.name})", flush=True)
        yield True
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        log.close()
        print("test-compose: stopped the dockerd it started", flush=True)


class Compose:
    """`docker compose` (v2) or `docker-compose` (v1) on our file, project and env file."""

    def __init__(self, command: list[str], project: str, env_file: Path, logs: Path) -> None:
        self.base = [*command, "--env-file", str(env_file), "-p", project]
        self.logs = logs
        self.env = {
            k: v for k, v in os.environ.items() if not k.startswith(("BENCHDASH_", "POSTGRES_"))
        }
        self.v1 = command == ["docker-compose"]
        if self.v1 or not _buildx():
            self.env["DOCKER_BUILDKIT"] = "0"  # v1 builds with the classic builder anyway

    def run(self, *args: str, echo: str = "", heartbeat: float = 30) -> None:
        """Run a Compose command, its output in logs/compose-<cmd>.log; lines matching the regex
        `echo` are shown with the seconds since the start, and the last line every `heartbeat` s."""
        path = self.logs / f"compose-{args[0]}.log"
        t0 = time.monotonic()
        last = [""]

        def relay(stream: IO[str]) -> None:
            with path.open("a") as out:  # the reader owns the log: it may outlive a kill
                for line in stream:
                    out.write(line)
                    last[0] = line.strip()
                    if echo and re.match(echo, line):
                        print(
                            f"   [{time.monotonic() - t0:4.0f} s] {line.strip()[:140]}", flush=True
                        )

        with path.open("a") as out:
            out.write(f"$ {' '.join([*self.base, *args])}\n")
        proc = subprocess.Popen(
            [*self.base, *args],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        assert proc.stdout is not None
        reader = threading.Thread(target=relay, args=(proc.stdout,), daemon=True)
        reader.start()
        try:
            while True:
                try:
                    proc.wait(timeout=heartbeat)
                    break
                except subprocess.TimeoutExpired:
                    print(f"   [{time.monotonic() - t0:4.0f} s] ... {last[0][:120]}", flush=True)
        finally:
            if proc.poll() is None:  # interrupted: stop it (its whole group) before the teardown
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
            reader.join(timeout=10)
        if proc.returncode != 0:
            tail = path.read_text().splitlines()[-40:]
            raise RuntimeError(
                f"`compose {' '.join(args)}` failed; end of {path}:\n" + "\n".join(tail)
            )

    def save_logs(self) -> Path:
        """Every service's log so far, into logs/services.log."""
        path = self.logs / "services.log"
        with path.open("w") as out:
            subprocess.run(
                [*self.base, "logs", "--no-color", "--timestamps"],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                check=False,
            )
        return path

    def out(self, *args: str) -> str:
        """Run a Compose command and return its output."""
        done = subprocess.run(
            [*self.base, *args], cwd=ROOT, env=self.env, capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            raise RuntimeError(f"`compose {' '.join(args)}` failed: {done.stderr.strip()[-1500:]}")
        return done.stdout

    def states(self) -> dict[str, str]:
        """Service → state of its container ('running', 'exited (0)', ...), via docker inspect."""
        ids = self.out("ps", "-q").split()
        if not ids:
            return {}
        fmt = '{{index .Config.Labels "com.docker.compose.service"}} {{.State.Status}} '
        fmt += "{{.State.ExitCode}} {{if .State.Health}}{{.State.Health.Status}}{{end}}"
        lines = subprocess.run(
            ["docker", "inspect", "-f", fmt, *ids], capture_output=True, text=True, check=True
        ).stdout.splitlines()
        out = {}
        for line in lines:
            service, status, code, *health = line.split()
            out[service] = status + (f" ({code})" if status == "exited" else "")
            out[service] += f" {health[0]}" if health else ""
        return out


def _buildx() -> bool:
    return subprocess.run(["docker", "buildx", "version"], capture_output=True).returncode == 0
