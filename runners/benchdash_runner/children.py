"""The children of a bench driver: each in its own process group, streamed, and stopped with
the driver on every exit path (and killed by Linux if the driver itself is killed)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


def log(message: str) -> None:
    """One log line, flushed at once (the agent streams stdout)."""
    print(message, flush=True)


def die_with_parent() -> None:
    """In a child: ask Linux to SIGKILL it when its parent dies, however it dies."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


@dataclass
class Children:
    """The processes a driver started and has not stopped yet."""

    running: list[subprocess.Popen[str]] = field(default_factory=list)

    def spawn(
        self, cmd: Sequence[str], cwd: Path | None, env: Mapping[str, str] | None, stdout: Any
    ) -> subprocess.Popen[str]:
        """Start `cmd` in a new session (its own process group) that dies with us."""
        child = subprocess.Popen(
            list(cmd),
            cwd=cwd,
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
            child = self.spawn(cmd, cwd, env, subprocess.PIPE)
        except OSError as exc:
            return 127, f"cannot run {cmd[0]}: {exc}"
        lines: list[str] = []
        assert child.stdout is not None
        for raw in child.stdout:
            line = raw.rstrip("\n")
            lines.append(line)
            if echo:
                log(line)
            if on_line is not None:
                on_line(line)
        code = child.wait()
        self.running.remove(child)
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
        sink = log_path.open("w") if log_path else subprocess.DEVNULL
        try:
            child = self.spawn(cmd, cwd, env, sink)
            try:
                yield child
            finally:
                self.stop(child)
        finally:
            if log_path:
                sink.close()  # type: ignore[union-attr]

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
