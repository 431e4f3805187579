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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import fleet  # noqa: E402
import pgowner  # noqa: E402
from composer import PROJECT, compose_command, compose_env, docker_available, down  # noqa: E402

BIN = ROOT / ".venv" / "bin"
DATA = Path(os.environ.get("BENCHDASH_DATA_DIR") or ROOT / ".data").resolve()
PIDS = DATA / "up.pids"  # what `make down` stops when `make up` was left running

API_ENV = (
    "DATABASE_URL",
    "BENCHDASH_SECRET_KEY",
    "BENCHDASH_ENVIRONMENT",
    "BENCHDASH_ADMIN_USERNAME",
    "BENCHDASH_ADMIN_PASSWORD",
    "BENCHDASH_AGENT_TOKENS",
    "BENCHDASH_PUBLIC_READ",
    "BENCHDASH_TRUSTED_PROXIES",
    "BENCHDASH_HOST",
    "BENCHDASH_PORT",
)
RUNNER_ENV = (
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


def _kept_secret(name: str, make: Callable[[], str] | None = None) -> str:
    """A secret generated once and kept in the data directory (mode 600)."""
    path = DATA / name
    if not path.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        path.write_text((make or (lambda: secrets.token_urlsafe(16)))() + "\n")
        path.chmod(0o600)
    return path.read_text().strip()


def native_env(port: int) -> tuple[dict[str, str], dict[str, str]]:
    """The variables of the native services, with the same names Compose uses, and each
    system's agent token (its own variable when set, else made once and kept)."""
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env.setdefault("BENCHDASH_ADMIN_USERNAME", "admin")
    for name, file in (
        ("BENCHDASH_ADMIN_PASSWORD", "admin-password"),
        ("BENCHDASH_SECRET_KEY", "secret-key"),
    ):
        if not env.get(name):  # a secret given is used, never written down
            env[name] = _kept_secret(file)
    tokens = {
        name: env.get(fleet.token_variable(name))
        or _kept_secret(f"agent-token-{name}", fleet.new_token)
        for name in systems()
    }
    env["BENCHDASH_AGENT_TOKENS"] = fleet.tokens_spec(tokens)
    env["BENCHDASH_HOST"] = env.get("BENCHDASH_HOST", "0.0.0.0")
    env["BENCHDASH_PORT"] = str(port)
    env["BENCHDASH_URL"] = f"http://127.0.0.1:{port}"
    env.setdefault("BENCHDASH_HOST_ID", socket.gethostname())
    env["BENCHDASH_REPO"] = str(ROOT)
    if not env.get("DATABASE_URL"):
        print(f"pgowner: {pgowner.hold(os.getpid(), 'make up')}", flush=True)
        url = subprocess.run(
            [str(BIN / "benchdash-server"), "db-url"], capture_output=True, text=True, check=True
        )
        env["DATABASE_URL"] = url.stdout.strip()
    return env, tokens


def build_ui() -> None:
    """Build the frontend once if it exists and is not built (nor built elsewhere: a
    BENCHDASH_FRONTEND_DIST you set is served as it is)."""
    frontend = ROOT / "frontend"
    built = (frontend / "dist" / "index.html").exists() or os.environ.get("BENCHDASH_FRONTEND_DIST")
    if not (frontend / "package.json").exists() or built:
        return
    print("building the UI (npm install && npm run build) ...", flush=True)
    subprocess.run(["npm", "install", "--no-audit", "--no-fund"], cwd=frontend, check=True)
    subprocess.run(["npm", "run", "build"], cwd=frontend, check=True)


def _interrupted(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


def native() -> int:
    """Run the native stack in the foreground until Ctrl-C (or SIGTERM from `make down`)."""
    signal.signal(signal.SIGTERM, _interrupted)
    port = int(os.environ.get("BENCHDASH_PORT", "8000"))
    env, tokens = native_env(port)
    print(f"database: {where_database()}; migrating ...", flush=True)
    plan = services()
    subprocess.run(plan["migrate"].command, env=env, check=True)
    build_ui()
    children = [subprocess.Popen(plan["api"].command, env=env)]
    PIDS.write_text(f"{os.getpid()} {children[0].pid}\n")
    agents = fleet.Fleet([], on_start=_note_pid)
    url = f"http://localhost:{port}"
    try:
        fleet.wait_ready(url, children[0])
        skipped = []
        for name, needs in systems().items():
            missing = [cmd for cmd in needs if shutil.which(cmd) is None]
            if missing:
                skipped.append(f"{name} (needs {', '.join(missing)})")
                continue
            command = list(plan[f"runner-{name}"].command)
            manifest = tomllib.loads((ROOT / "runners" / name / "runner.toml").read_text())
            agent_env = fleet.agent_env(env, tokens[name], manifest.get("pass_env", []))
            agents.agents.append(fleet.Agent(name, command, agent_env, DATA / f"agent-{name}.log"))
        agents.start()
        print(banner(env, url, [a.name for a in agents.agents], skipped), flush=True)
        while children[0].poll() is None:
            agents.tend()  # a dead agent is started again, with backoff
            time.sleep(0.5)
        return children[0].returncode or 0
    except KeyboardInterrupt:
        return 0
    finally:
        agents.stop()
        fleet.stop(children)
        PIDS.unlink(missing_ok=True)
        if not os.environ.get("DATABASE_URL"):  # the embedded server, if this run holds it
            print(f"pgowner: {pgowner.release(os.getpid())}", flush=True)


def where_database() -> str:
    """Which PostgreSQL the stack uses, as `make up` says it."""
    given = os.environ.get("DATABASE_URL")
    return "DATABASE_URL" if given else f"embedded PostgreSQL in {DATA / 'pg'}"


def _note_pid(pid: int) -> None:
    with PIDS.open("a") as pids:
        pids.write(f"{pid}\n")


def banner(env: dict[str, str], url: str, started: list[str], skipped: list[str]) -> str:
    """What `make up` prints once the stack is up."""
    given = bool(os.environ.get("BENCHDASH_ADMIN_PASSWORD"))
    password = "BENCHDASH_ADMIN_PASSWORD (as you set it)" if given else str(DATA / "admin-password")
    return (
        f"\nbenchdash is up: {url}/   (API docs {url}/api/docs)\n"
        f"first login: user {env['BENCHDASH_ADMIN_USERNAME']!r}, password in {password}\n"
        f"runner agents: {', '.join(started) or 'none'}"
        + (f"; not started: {', '.join(skipped)}" if skipped else "")
        + f" (each with a token of its own system; logs in {DATA}/agent-<system>.log; "
        "a dead agent is restarted)\n"
        "upload token: .venv/bin/benchdash-server token create --system uvhttp --scope upload\n"
        "demo data:    .venv/bin/benchdash-server demo\n"
    )


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
    env_file = compose_env(ROOT, DATA, _kept_secret, systems())
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
