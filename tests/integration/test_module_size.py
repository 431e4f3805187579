"""`scripts/check-module-size` (run by `make lint`): a warning past a language's guidance, a
failure past twice it; generated code and migrations aside."""

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


def test_the_repository_keeps_the_hard_limits() -> None:
    out = _check(ROOT)
    assert out.returncode == 0, out.stderr
    assert "every module within its hard limit" in out.stdout


def test_each_language_has_its_band(tmp_path: Path) -> None:
    root = _repo(
        tmp_path,
        {
            "systems/demo/client.go": 1001,  # C/C++/Rust/Go: guidance 500, hard 1000
            "systems/demo/server.c": 700,  # warned only
            "scripts/tool": 601,  # extensionless, with a shebang: 300
            "backend/ok.py": 300,  # at its guidance: silent
            "backend/long.py": 450,  # warned
            "backend/domain/service.py": 790,  # a service: 400, hard 800: warned
            "backend/domain/other.py": 601,  # fails
            "migrations/versions/0001_initial.py": 900,
            "frontend/src/api/schema.ts": 4000,  # generated
            "docs/long.md": 900,
        },
    )
    out = _check(root)
    assert out.returncode == 1
    failed = [line.split(":")[0] for line in out.stderr.splitlines() if "(limit" in line]
    assert failed == ["systems/demo/client.go", "scripts/tool", "backend/domain/other.py"]
    warned = sorted(line.split(": ")[1] for line in out.stdout.splitlines() if "warning" in line)
    assert warned == ["backend/domain/service.py", "backend/long.py", "systems/demo/server.c"]
    assert "3 module(s) over their hard limit" in out.stderr


def test_a_tree_within_its_hard_limits_passes_with_warnings(tmp_path: Path) -> None:
    root = _repo(tmp_path, {"backend/long.py": 599, "app.rs": 480})
    out = _check(root)
    assert out.returncode == 0, out.stderr
    assert "warning: backend/long.py: 599 lines (guidance 300)" in out.stdout
    assert "(1 past its guidance)" in out.stdout
