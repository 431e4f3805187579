"""`make up`: Docker Compose when an engine answers, else the native stack.

Native stack: a real PostgreSQL (DATABASE_URL, or the embedded pgserver one under .data/),
migrations, the API serving the built UI on :8000, and one runner agent per system whose
toolchain is on this machine. `SERVICES` below is the single description of what runs; the
compose file runs the same commands with the same variables (a test checks it). Stdlib only.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from composer import PROJECT, compose_command, compose_env, docker_available, down  # noqa: E402

BIN = ROOT / ".venv" / "bin"
DATA = ROOT / ".data"
PIDS = DATA / "up.pids"  # what `make down` stops when `make up` was left running

API_ENV = (
    "DATABASE_URL",
    "BENCHDASH_SECRET_KEY",
    "BENCHDASH_ENVIRONMENT",
    "BENCHDASH_ADMIN_USERNAME",
    "BENCHDASH_ADMIN_PASSWORD",
    "BENCHDASH_AGENT_TOKEN",
    "BENCHDASH_PUBLIC_READ",
    "BENCHDASH_HOST",
    "BENCHDASH_PORT",
)
RUNNER_ENV = (
    "DATABASE_URL",
    "BENCHDASH_URL",
    "BENCHDASH_TOKEN",
    "BENCHDASH_HOST_ID",
    "BENCHDASH_REPO",
)


@dataclass(frozen=True)
class Service:
    """One process of the product: its command, the variables it reads, its image."""

    command: tuple[str, ...]
    env: tuple[str, ...]
    dockerfile: str


def systems() -> dict[str, list[str]]:
    """Systems with a runner manifest and a source folder → the commands their agents need."""
    out = {}
    for manifest in sorted((ROOT / "runners").glob("*/runner.toml")):
        name = manifest.parent.name
        if (ROOT / "systems" / name).is_dir():
            out[name] = list(tomllib.loads(manifest.read_text()).get("requires", []))
    return out


def services() -> dict[str, Service]:
    """Every service of the product, by its compose name."""
    out = {
        "migrate": Service(("benchdash-server", "migrate"), API_ENV, "backend/Dockerfile"),
        "api": Service(
            ("benchdash-server", "serve", "--no-migrate"), API_ENV, "backend/Dockerfile"
        ),
    }
    for name in systems():
        out[f"runner-{name}"] = Service(
            ("benchdash-runner", "--system", name), RUNNER_ENV, f"runners/{name}/Dockerfile"
        )
    return out


def _kept_secret(name: str, make: list[str] | None = None) -> str:
    """A secret generated once and kept in .data/ (mode 600)."""
    path = DATA / name
    if not path.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        value = (
            subprocess.run(make, capture_output=True, text=True, check=True).stdout.strip()
            if make
            else secrets.token_urlsafe(16)
        )
        path.write_text(value + "\n")
        path.chmod(0o600)
    return path.read_text().strip()


def native_env(port: int) -> dict[str, str]:
    """The variables of the native services, with the same names Compose uses."""
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env.setdefault("BENCHDASH_ADMIN_USERNAME", "admin")
    env.setdefault("BENCHDASH_ADMIN_PASSWORD", _kept_secret("admin-password"))
    env.setdefault("BENCHDASH_SECRET_KEY", _kept_secret("secret-key"))
    token = _kept_secret("agent-token", [str(BIN / "benchdash-server"), "token", "generate"])
    env.setdefault("BENCHDASH_AGENT_TOKEN", token)
    env["BENCHDASH_TOKEN"] = env["BENCHDASH_AGENT_TOKEN"]
    env["BENCHDASH_HOST"] = env.get("BENCHDASH_HOST", "0.0.0.0")
    env["BENCHDASH_PORT"] = str(port)
    env["BENCHDASH_URL"] = f"http://127.0.0.1:{port}"
    env.setdefault("BENCHDASH_HOST_ID", socket.gethostname())
    env["BENCHDASH_REPO"] = str(ROOT)
    if not env.get("DATABASE_URL"):
        url = subprocess.run(
            [str(BIN / "benchdash-server"), "db-url"], capture_output=True, text=True, check=True
        )
        env["DATABASE_URL"] = url.stdout.strip()
    return env


def build_ui() -> None:
    """Build the frontend once if it exists and is not built."""
    frontend = ROOT / "frontend"
    if not (frontend / "package.json").exists() or (frontend / "dist" / "index.html").exists():
        return
    print("building the UI (npm install && npm run build) ...", flush=True)
    subprocess.run(["npm", "install", "--no-audit", "--no-fund"], cwd=frontend, check=True)
    subprocess.run(["npm", "run", "build"], cwd=frontend, check=True)


def wait_ready(url: str, proc: subprocess.Popen[bytes], timeout: float = 120) -> None:
    """Poll /readyz until it answers 200."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the API exited with code {proc.returncode}")
        try:
            with urllib.request.urlopen(url + "/readyz", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    raise SystemExit(f"the API did not become ready within {timeout:.0f} s")


def _interrupted(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


def native() -> int:
    """Run the native stack in the foreground until Ctrl-C (or SIGTERM from `make down`)."""
    signal.signal(signal.SIGTERM, _interrupted)
    port = int(os.environ.get("BENCHDASH_PORT", "8000"))
    env = native_env(port)
    where = "DATABASE_URL" if os.environ.get("DATABASE_URL") else "embedded PostgreSQL in .data/pg"
    print(f"database: {where}; migrating ...", flush=True)
    plan = services()
    subprocess.run(plan["migrate"].command, env=env, check=True)
    build_ui()
    children = [subprocess.Popen(plan["api"].command, env=env)]
    PIDS.write_text(f"{os.getpid()} {children[0].pid}\n")
    url = f"http://localhost:{port}"
    try:
        wait_ready(url, children[0])
        started, skipped = [], []
        for name, needs in systems().items():
            missing = [cmd for cmd in needs if shutil.which(cmd) is None]
            if missing:
                skipped.append(f"{name} (needs {', '.join(missing)})")
                continue
            log = (DATA / f"agent-{name}.log").open("ab")
            cmd = plan[f"runner-{name}"].command
            children.append(subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT))
            with PIDS.open("a") as pids:
                pids.write(f"{children[-1].pid}\n")
            started.append(name)
        print(
            f"\nbenchdash is up: {url}/   (API docs {url}/api/docs)\n"
            f"first login: user {env['BENCHDASH_ADMIN_USERNAME']!r}, password in "
            ".data/admin-password (or BENCHDASH_ADMIN_PASSWORD)\n"
            f"runner agents: {', '.join(started) or 'none'}"
            + (f"; not started: {', '.join(skipped)}" if skipped else "")
            + " (logs in .data/agent-<system>.log)\n"
            "upload token: .venv/bin/benchdash-server token create --system uvhttp --scope upload\n"
            "demo data:    .venv/bin/benchdash-server demo\n",
            flush=True,
        )
        while children[0].poll() is None:
            time.sleep(1)
        return children[0].returncode or 0
    except KeyboardInterrupt:
        return 0
    finally:
        stop(children)
        PIDS.unlink(missing_ok=True)
        if not os.environ.get("DATABASE_URL"):  # the embedded server is ours: stop it too
            subprocess.run([str(BIN / "benchdash-server"), "db-stop"], env=env, check=False)


def stop(children: list[subprocess.Popen[bytes]]) -> None:
    """SIGTERM every child, then SIGKILL what is still running after 15 s."""
    for c in children:
        if c.poll() is None:
            c.send_signal(signal.SIGTERM)
    for c in children:
        try:
            c.wait(timeout=15)
        except subprocess.TimeoutExpired:
            c.kill()


def main() -> int:
    """Compose if an engine and Compose are here, else native (saying why); `down` stops."""
    if sys.argv[1:] == ["down"]:
        return down(PIDS, BIN / "benchdash-server", ROOT)
    if os.environ.get("BENCHDASH_NATIVE") == "1":
        return native()
    if not docker_available():
        print("no Docker engine answers (docker info): starting the native stack", flush=True)
        return native()
    compose = compose_command()
    if compose is None:
        print(
            "a Docker engine answers but Compose is missing: starting the native stack "
            "(for Compose install the plugin, e.g. apt-get install docker-compose-plugin, "
            "or Debian's v1: apt-get install docker-compose)",
            flush=True,
        )
        return native()
    env_file = compose_env(ROOT, DATA, _kept_secret)
    port = os.environ.get("BENCHDASH_PUBLISH_PORT", "8000")
    print(
        f"starting Compose ({' '.join(compose)}, project {PROJECT}, variables from {env_file}); "
        f"the UI will be on http://localhost:{port}/\n"
        "first login: user 'admin', password BENCHDASH_ADMIN_PASSWORD in that file",
        flush=True,
    )
    return subprocess.call(
        [*compose, "--env-file", str(env_file), "-p", PROJECT, "up", "--build"], cwd=ROOT
    )


if __name__ == "__main__":
    sys.exit(main())
