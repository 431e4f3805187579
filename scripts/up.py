"""`make up`: Docker Compose when an engine answers, else the native stack.

Native stack: a real PostgreSQL (DATABASE_URL, or the embedded pgserver one under .data/),
migrations, the API serving the built UI on :8000. Stdlib only.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = ROOT / ".venv" / "bin"
PORT = int(os.environ.get("BENCHDASH_PORT", "8000"))

# The native services; docker-compose.yml runs the same commands with the same variables.
API_COMMAND = ["benchdash-server", "serve", "--host", "0.0.0.0", "--port", str(PORT)]
MIGRATE_COMMAND = ["benchdash-server", "migrate"]
API_ENV = (
    "DATABASE_URL",
    "BENCHDASH_SECRET_KEY",
    "BENCHDASH_ADMIN_USERNAME",
    "BENCHDASH_ADMIN_PASSWORD",
    "BENCHDASH_PUBLIC_READ",
    "BENCHDASH_ENVIRONMENT",
)


def docker_available() -> bool:
    """Whether a Docker engine answers (the client alone is not enough)."""
    if shutil.which("docker") is None:
        return False
    probe = subprocess.run(["docker", "info"], capture_output=True, timeout=20, check=False)
    return probe.returncode == 0


def admin_password(env: dict[str, str]) -> str:
    """The admin password from the environment, else one generated once and kept in .data/."""
    if env.get("BENCHDASH_ADMIN_PASSWORD"):
        return env["BENCHDASH_ADMIN_PASSWORD"]
    path = ROOT / ".data" / "admin-password"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(12) + "\n")
        path.chmod(0o600)
    return path.read_text().strip()


def build_ui() -> None:
    """Build the frontend once if it exists and is not built."""
    frontend = ROOT / "frontend"
    if not (frontend / "package.json").exists() or (frontend / "dist" / "index.html").exists():
        return
    print("building the UI (npm ci && npm run build) ...", flush=True)
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=frontend, check=True)
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


def native() -> int:
    """Run the native stack in the foreground until Ctrl-C."""
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env["BENCHDASH_ADMIN_PASSWORD"] = admin_password(env)
    env.setdefault("BENCHDASH_ADMIN_USERNAME", "admin")
    where = "DATABASE_URL" if env.get("DATABASE_URL") else "embedded PostgreSQL in .data/pg"
    print(f"database: {where}; migrating ...", flush=True)
    subprocess.run(MIGRATE_COMMAND, env=env, check=True)
    build_ui()
    children = [subprocess.Popen(API_COMMAND, env=env)]
    url = f"http://localhost:{PORT}"
    try:
        wait_ready(url, children[0])
        user = env["BENCHDASH_ADMIN_USERNAME"]
        print(
            f"\nbenchdash is up: {url}/   (API docs {url}/api/docs)\n"
            f"first login: user {user!r}, password in .data/admin-password "
            "(or BENCHDASH_ADMIN_PASSWORD)\n"
            "upload token: .venv/bin/benchdash-server token create --system uvhttp --scope upload\n"
            "demo data:    .venv/bin/benchdash-server demo\n",
            flush=True,
        )
        while all(c.poll() is None for c in children):
            time.sleep(1)
        return next(c.returncode for c in children if c.poll() is not None) or 0
    except KeyboardInterrupt:
        return 0
    finally:
        for c in children:
            if c.poll() is None:
                c.send_signal(signal.SIGTERM)
        for c in children:
            try:
                c.wait(timeout=10)
            except subprocess.TimeoutExpired:
                c.kill()


def main() -> int:
    """Compose if possible, else native."""
    if os.environ.get("BENCHDASH_NATIVE") != "1" and docker_available():
        return subprocess.call(["docker", "compose", "up", "--build"], cwd=ROOT)
    return native()


if __name__ == "__main__":
    sys.exit(main())
