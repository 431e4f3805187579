"""What a document's configuration says about the tools of a run: tool versions (asked once per
process), the C compiler CMake picked, and the modules a go.mod pins."""

from __future__ import annotations

import functools
import re
import subprocess
from collections.abc import Sequence
from pathlib import Path

VERSION_TIMEOUT_S = 10.0


def version(
    *, cmd: Sequence[str], pattern: str | None = None, cwd: Path | None = None
) -> str | None:
    """The first line a tool prints when it succeeds (`cmd`, e.g. `["cmake", "--version"]`;
    stdout, else stderr), or with `pattern` the pattern's first group in all its output, however
    it exits (`wrk -v` exits 1; `nginx -v` writes to stderr). None when it cannot run, fails,
    prints nothing or the pattern does not match. Asked once per process."""
    return _version(tuple(cmd), pattern, cwd)


@functools.cache
def _version(cmd: tuple[str, ...], pattern: str | None, cwd: Path | None) -> str | None:
    try:
        done = subprocess.run(
            cmd, capture_output=True, text=True, cwd=cwd, timeout=VERSION_TIMEOUT_S, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if pattern is not None:
        found = re.search(pattern, f"{done.stdout}\n{done.stderr}")
        return found.group(1) if found else None
    text = done.stdout.strip() or done.stderr.strip()
    return text.splitlines()[0] if text and done.returncode == 0 else None


def cmake_c_compiler(*, build: Path) -> tuple[str | None, str | None]:
    """The C compiler a CMake build folder uses: (id, version), from its compiler test's cache."""
    for path in build.glob("CMakeFiles/*/CMakeCCompiler.cmake"):
        text = path.read_text()
        cid = re.search(r'set\(CMAKE_C_COMPILER_ID "([^"]*)"\)', text)
        ver = re.search(r'set\(CMAKE_C_COMPILER_VERSION "([^"]*)"\)', text)
        return (cid.group(1) if cid else None), (ver.group(1) if ver else None)
    return None, None


def go_module_pins(*, go_mod: Path) -> dict[str, str]:
    """The direct dependencies a go.mod requires and their versions (`// indirect` left out),
    from `require x v1` lines and `require ( ... )` blocks alike."""
    pins: dict[str, str] = {}
    for line in go_mod.read_text().splitlines():
        parts = line.strip().removeprefix("require ").split()
        if len(parts) >= 2 and parts[1].startswith("v") and "// indirect" not in line:
            pins[parts[0]] = parts[1]
    return pins
