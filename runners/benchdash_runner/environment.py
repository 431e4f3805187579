"""Describe the machine a benchmark ran on, for the document's `environment` block.

The server fingerprints this block into a testbed when `run.testbed` is not given, so the
values must be stable across runs on one machine: no load averages, no free memory. A runner
names its testbed (`testbed_name`: $BENCHDASH_TESTBED, else the host name), so a compiler or
kernel update keeps the history on one testbed and shows as an environment change instead.
"""

from __future__ import annotations

import os
import platform
import re
import socket
from collections.abc import Mapping
from pathlib import Path
from typing import Any

_CPUINFO = Path("/proc/cpuinfo")
_MEMINFO = Path("/proc/meminfo")
_CPU_KEYS = ("model name", "Hardware", "Processor", "cpu model")


def detect(compiler: str | None = None, compiler_version: str | None = None) -> dict[str, Any]:
    """Return {os, cpu, cores, memory_mb, compiler, compiler_version} for this machine.

    `memory_mb` is rounded to whole GiB and `os` keeps the kernel's major.minor, so that the
    server's testbed fingerprint does not change with a reboot or a patch update.
    """
    return {
        "os": os_name(),
        "cpu": cpu_model(),
        "cores": os.cpu_count() or 1,
        "memory_mb": _round_gib(memory_mb()),
        "compiler": compiler,
        "compiler_version": compiler_version,
    }


def testbed_name(env: Mapping[str, str] | None = None) -> str | None:
    """The testbed a runner-executed run reports: $BENCHDASH_TESTBED, else the host name."""
    env = os.environ if env is None else env
    name = (env.get("BENCHDASH_TESTBED") or "").strip() or socket.gethostname().strip()
    return name[:200] or None


def os_name(system: str | None = None, release: str | None = None) -> str:
    """`Linux 6.1`: the kernel's major.minor only, so a patch update keeps the testbed."""
    system = platform.system() if system is None else system
    release = platform.release() if release is None else release
    major_minor = ".".join(re.split(r"[.-]", release)[:2]) if release else ""
    return f"{system} {major_minor}".strip() or "unknown"


def cpu_model(cpuinfo: Path = _CPUINFO) -> str:
    """Return the CPU model name from /proc/cpuinfo, or the platform's best guess."""
    try:
        text = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        # x86 says "model name"; arm64 and others may only have "Hardware" or "Processor".
        if sep and value.strip() and key.strip() in _CPU_KEYS:
            return " ".join(value.split())
    return platform.processor() or platform.machine() or "unknown"


def memory_mb(meminfo: Path = _MEMINFO) -> int | None:
    """Return total memory in MiB from /proc/meminfo, or None when it cannot be read."""
    try:
        text = meminfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return _sysconf_memory_mb()
    for line in text.splitlines():
        if line.startswith("MemTotal:"):
            parts = line.split()
            if len(parts) >= 2 and parts[1].isdigit():
                return int(parts[1]) // 1024
    return _sysconf_memory_mb()


def _round_gib(mb: int | None) -> int | None:
    """Round to whole GiB: MemTotal moves by a few MB between boots and kernels."""
    return None if mb is None else max(1, round(mb / 1024)) * 1024


def _sysconf_memory_mb() -> int | None:
    try:
        pages = os.sysconf("SC_PHYS_PAGES")
        page_size = os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None
    return int(pages * page_size) // (1024 * 1024)
