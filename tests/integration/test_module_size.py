"""`scripts/check-module-size` (run by `make lint`) passes here and fails on a long module."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.integration.conftest import ROOT

TOOL = str(ROOT / "scripts" / "check-module-size")


def _check(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, TOOL, "--root", str(root)], capture_output=True, text=True, check=False
    )


def _repo(tmp_path: Path, files: dict[str, int]) -> Path:
    """A git checkout holding each file with that many lines."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    for name, lines in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        head = "#!/bin/sh\n" if "." not in path.name else ""
        path.write_text(head + "x\n" * (lines - bool(head)))
    subprocess.run(["git", "-C", str(tmp_path), "add", "."], check=True)
    return tmp_path


def test_the_repository_keeps_the_limit() -> None:
    out = _check(ROOT)
    assert out.returncode == 0, out.stderr
    assert "every module is at most 250 lines" in out.stdout


def test_a_long_module_fails_and_is_named(tmp_path: Path) -> None:
    root = _repo(
        tmp_path,
        {
            "systems/demo/client.go": 251,
            "scripts/tool": 260,  # extensionless, with a shebang
            "backend/ok.py": 250,
            "migrations/versions/0001_initial.py": 900,
            "frontend/src/api/schema.ts": 4000,  # generated
            "docs/long.md": 900,
        },
    )
    out = _check(root)
    assert out.returncode == 1
    named = [line.split(":")[0] for line in out.stderr.splitlines() if "limit 250" in line]
    assert named == ["scripts/tool", "systems/demo/client.go"]
    assert "2 module(s) over 250 lines" in out.stderr
