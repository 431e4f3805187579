"""`Driver.require` and `Driver.cmake` with the real CMake and compiler: what the C and C++
drivers (uvhttp, galay-ssl) build with."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from benchdash_runner import driving

pytestmark = pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not installed")

PROJECT = """cmake_minimum_required(VERSION 3.16)
project(tiny C)
add_executable(answer answer.c)
add_executable(other other.c)
"""


def _system(root: Path, name: str) -> driving.Driver:
    src = root / name
    src.mkdir(parents=True)
    (src / "CMakeLists.txt").write_text(PROJECT)
    (src / "answer.c").write_text('#include <stdio.h>\nint main(void){puts("42");return 0;}\n')
    (src / "other.c").write_text("int main(void){return 0;}\n")
    manifest = {"source": name, "profiles": {"quick": {}}}
    return driving.Driver(
        manifest=manifest, profile_name="quick", out=root, scenarios=[], root=root
    )


def test_cmake_builds_the_target_asked_for_and_restarts_a_tree_of_another_checkout(
    tmp_path: Path,
) -> None:
    build = tmp_path / "build"
    first = _system(tmp_path, "one")
    first.cmake(build, ["-DCMAKE_BUILD_TYPE=Release"], target="answer")
    assert subprocess.run([build / "answer"], capture_output=True, text=True).stdout == "42\n"
    assert not (build / "other").exists()  # only the target asked for
    second = _system(tmp_path, "two")  # the same build folder, another source tree
    second.cmake(build, ["-DCMAKE_BUILD_TYPE=Release"])
    cache = (build / "CMakeCache.txt").read_text()
    assert f"CMAKE_HOME_DIRECTORY:INTERNAL={tmp_path / 'two'}" in cache
    assert (build / "other").exists()  # no target: all of them


def test_a_failing_build_exits_with_the_build_failed_code(tmp_path: Path) -> None:
    drv = _system(tmp_path, "broken")
    (drv.system_dir / "answer.c").write_text("int main(void){ return }\n")
    with pytest.raises(SystemExit) as exited:
        drv.cmake(tmp_path / "build", [], target="answer")
    assert exited.value.code == driving.BUILD_FAILED


def test_require_names_the_missing_tool_and_where_it_comes_from(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    drv = _system(tmp_path, "any")
    drv.require("cmake", "sh", hint="never shown")
    with pytest.raises(SystemExit) as exited:
        drv.require("cmake", "no-such-tool-here", hint="see systems/x/apt-packages.txt")
    assert exited.value.code == 1
    err = capsys.readouterr()
    said = err.out + err.err
    assert "no-such-tool-here is not installed (see systems/x/apt-packages.txt)" in said
