"""The import contracts (`lint-imports`) hold, and they do fail when a layer is crossed."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BACKEND = Path(__file__).resolve().parents[1]
LINT = str(Path(sys.executable).with_name("lint-imports"))
VERDICT = re.compile(r" (KEPT|BROKEN)( \(\d+ ignored imports\))?$")
CONTRACTS = 6  # in pyproject.toml; the runner contract has no package in the copy


def _lint(package_parent: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(package_parent), "COLUMNS": "300"}
    return subprocess.run(
        [LINT, "--config", str(BACKEND / "pyproject.toml"), "--no-cache"],
        cwd=package_parent,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A copy of the benchdash package that a test may break."""
    shutil.copytree(BACKEND / "benchdash", tmp_path / "benchdash")
    return tmp_path


def test_the_real_tree_keeps_every_contract(copy: Path) -> None:
    out = _lint(copy)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 broken" in out.stdout


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        ("results/read.py", "from benchdash.alerts import service", "The house, top to bottom"),
        ("auth/service.py", "import benchdash.deps", "The house, top to bottom"),
        ("db.py", "import benchdash.deps", "The house, top to bottom"),
        ("cli.py", "import benchdash.runs.queries", "Only the app mounts endpoints"),
        ("runs/queries.py", "import benchdash.startup", "The read side reaches no entry point"),
        ("regression/engine.py", "import sqlalchemy", "regression engine is pure"),
        ("kit/sql.py", "import benchdash.runs.states", "The house, top to bottom"),
        ("profiles/service.py", "import benchdash.results.store", "The house, top to bottom"),
        ("profiles/tree.py", "import sqlalchemy", "differential profiles are pure"),
    ],
)
def test_a_deliberate_violation_breaks_its_contract(
    copy: Path, module: str, line: str, contract: str
) -> None:
    target = copy / "benchdash" / module
    target.write_text(target.read_text() + f"\n{line}  # deliberate violation\n")
    out = _lint(copy)
    assert out.returncode != 0
    verdicts = [ln for ln in out.stdout.splitlines() if VERDICT.search(ln)]
    broken = [ln for ln in verdicts if VERDICT.search(ln).group(1) == "BROKEN"]  # type: ignore[union-attr]
    assert len(verdicts) == CONTRACTS and len(broken) == 1, out.stdout
    assert contract in broken[0], out.stdout
