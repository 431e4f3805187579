"""The processes a harness starts: each in its own process group, streamed, and stopped with
the harness on every exit path (and killed by Linux if the harness itself is killed).

`Processes` is the base of `driving.Driver`; a test or a tool can use it alone.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO


def log(message: str) -> None:
    """One log line, flushed at once (the agent streams stdout)."""
    print(message, flush=True)


def die_with_parent() -> None:
    """In a child: ask Linux to SIGKILL it when its parent dies, however it dies."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


@dataclass(kw_only=True)
class Processes:
    """The processes a harness started and has not stopped yet; `workdir` is the default cwd."""

    workdir: Path | None = None
    running: list[subprocess.Popen[str]] = field(default_factory=list)

    def spawn(
        self,
        cmd: Sequence[str],
        *,
        cwd: Path | None = None,
        env: Mapping[str, str] | None = None,
        stdout: IO[str] | int | None = None,
    ) -> subprocess.Popen[str]:
        """Start `cmd` in a new session (its own process group) that dies with us."""
        child = subprocess.Popen(
            list(cmd),
            cwd=cwd or self.workdir,
            env=None if env is None else dict(env),
            stdout=stdout,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
            preexec_fn=die_with_parent,
        )
        self.running.append(child)
        return child

    def run(
        self,
        cmd: Sequence[str],
        *,
        cwd: Path | None = None,
        env: Mapping[str, str] | None = None,
        echo: bool = True,
        on_line: Callable[[str], None] | None = None,
    ) -> tuple[int, str]:
        """Run `cmd` to its end, streaming its output; return (exit code, whole output)."""
        try:
            child = self.spawn(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE)
        except OSError as exc:
            return 127, f"cannot run {cmd[0]}: {exc}"
        lines: list[str] = []
        assert child.stdout is not None
        try:
            for raw in child.stdout:
                line = raw.rstrip("\n")
                lines.append(line)
                if echo:
                    log(line)
                if on_line is not None:
                    on_line(line)
            code = child.wait()
        finally:
            self.stop(child)
        return code, "\n".join(lines)

    @contextlib.contextmanager
    def background(
        self,
        cmd: Sequence[str],
        *,
        cwd: Path | None = None,
        env: Mapping[str, str] | None = None,
        log_path: Path | None = None,
    ) -> Iterator[subprocess.Popen[str]]:
        """Start a server for the block's duration; it is stopped on every exit path."""
        with contextlib.ExitStack() as stack:
            sink = stack.enter_context(log_path.open("w")) if log_path else subprocess.DEVNULL
            child = self.spawn(cmd, cwd=cwd, env=env, stdout=sink)
            stack.callback(self.stop, child)
            yield child

    def stop(self, child: subprocess.Popen[str], grace_s: float = 3.0) -> None:
        """SIGTERM the child's process group, SIGKILL it after `grace_s`."""
        if child.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGTERM)
            try:
                child.wait(timeout=grace_s)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(child.pid, signal.SIGKILL)
                child.wait()
        if child in self.running:
            self.running.remove(child)

    def stop_all(self) -> None:
        """Stop every child still running (their whole process groups)."""
        for child in list(reversed(self.running)):
            self.stop(child, grace_s=1.0)
