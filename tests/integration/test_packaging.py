"""Honest packaging: `backend/` alone, in a clean virtual environment, imports and migrates.

The same steps as the API image (backend/Dockerfile): the declared dependencies only, then
the package itself without dependencies, `pip check`, the app built, `alembic upgrade head`
on a scratch database. Nothing from `runners/` is installed, so an import the package does
not declare fails here.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.integration.conftest import ROOT, SERVER


def _run(*cmd: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> str:
    out = subprocess.run(
        cmd, env=env, cwd=cwd, capture_output=True, text=True, check=False, timeout=900
    )
    assert out.returncode == 0, f"{' '.join(cmd)}\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
    return out.stdout


def test_backend_alone_installs_imports_and_migrates(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", str(venv))
    py, pip = str(venv / "bin" / "python"), str(venv / "bin" / "pip")
    stub = tmp_path / "stub"
    (stub / "benchdash").mkdir(parents=True)
    shutil.copy(ROOT / "backend" / "pyproject.toml", stub / "pyproject.toml")
    (stub / "benchdash" / "__init__.py").write_text("")
    _run(pip, "install", "-q", str(stub))  # the declared dependencies, as the image does
    _run(pip, "install", "-q", "--no-deps", "-e", str(ROOT / "backend"))
    _run(pip, "check")
    _run(py, "-c", "from benchdash.app import create_app; create_app()", cwd=tmp_path)
    missing = subprocess.run(
        [py, "-c", "import benchdash_runner"], capture_output=True, text=True, check=False
    )
    assert missing.returncode != 0, "runners leaked into the backend's environment"
    db = _run(SERVER, "scratch-db", f"benchdash_pkg_{os.getpid()}").strip()
    env = {k: v for k, v in os.environ.items() if not k.startswith("VIRTUAL_ENV")}
    env["DATABASE_URL"] = db
    out = _run(str(venv / "bin" / "benchdash-server"), "migrate", env=env, cwd=tmp_path)
    assert "schema at head" in out
