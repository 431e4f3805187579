"""Tool versions, CMake's compiler and go.mod pins (toolinfo.py), with real commands."""

from __future__ import annotations

import sys
from pathlib import Path

from benchdash_runner import toolinfo

ROOT = Path(__file__).resolve().parents[2]


def tool(tmp_path: Path, body: str) -> list[str]:
    """A real command: a Python script that counts its runs in a file beside it."""
    script = tmp_path / "tool.py"
    script.write_text(
        "import pathlib, sys\n"
        "runs = pathlib.Path(__file__).with_name('runs')\n"
        "runs.write_text(runs.read_text() + 'x' if runs.exists() else 'x')\n" + body
    )
    return [sys.executable, str(script)]


def test_the_first_line_of_a_tools_version_asked_once(tmp_path: Path) -> None:
    cmd = tool(tmp_path, "print('mytool 1.2.3 (build 7)'); print('more')")
    assert toolinfo.version(cmd=[*cmd, "--version"]) == "mytool 1.2.3 (build 7)"
    assert toolinfo.version(cmd=[*cmd, "--version"]) == "mytool 1.2.3 (build 7)"
    assert (tmp_path / "runs").read_text() == "x"  # cached: asked once


def test_a_pattern_reads_stderr_whatever_the_exit_code(tmp_path: Path) -> None:
    cmd = tool(
        tmp_path, "sys.stderr.write('usage...\\nnginx version: nginx/1.22.1\\n'); sys.exit(1)"
    )
    assert toolinfo.version(cmd=cmd, pattern=r"nginx/(\S+)") == "1.22.1"
    assert toolinfo.version(cmd=cmd, pattern=r"wrk (\S+)") is None


def test_a_failing_or_missing_tool_has_no_version(tmp_path: Path) -> None:
    failing = tool(tmp_path, "sys.stderr.write('Package x was not found\\n'); sys.exit(1)")
    assert toolinfo.version(cmd=failing) is None
    assert toolinfo.version(cmd=[str(tmp_path / "no-such-tool"), "--version"]) is None
    assert toolinfo.version(cmd=tool(tmp_path, "pass")) is None  # prints nothing


def test_go_mod_pins_are_the_direct_requirements() -> None:
    cachex = toolinfo.go_module_pins(go_mod=ROOT / "systems/cachex/go.mod")
    assert cachex == {
        "github.com/HdrHistogram/hdrhistogram-go": "v1.4.0",
        "github.com/dgraph-io/ristretto/v2": "v2.4.2",
        "golang.org/x/sync": "v0.17.0",
    }
    pointsub = toolinfo.go_module_pins(go_mod=ROOT / "systems/pointsub/go.mod")
    assert pointsub == {"github.com/libp2p/go-libp2p": "v0.51.0"}  # a one-line require


def test_cmake_c_compiler_from_the_build_folder(tmp_path: Path) -> None:
    assert toolinfo.cmake_c_compiler(build=tmp_path) == (None, None)
    folder = tmp_path / "CMakeFiles" / "3.25.1"
    folder.mkdir(parents=True)
    (folder / "CMakeCCompiler.cmake").write_text(
        'set(CMAKE_C_COMPILER "/usr/bin/cc")\n'
        'set(CMAKE_C_COMPILER_ID "GNU")\n'
        'set(CMAKE_C_COMPILER_VERSION "12.2.0")\n'
    )
    assert toolinfo.cmake_c_compiler(build=tmp_path) == ("GNU", "12.2.0")
