"""A process's resources from /proc (procstat.py): a captured /proc and a real process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from benchdash_runner import procstat

PROC = Path(__file__).resolve().parents[1] / "testdata" / "wrk" / "uvhttp" / "proc"


def test_snapshot_and_resources_of_a_captured_proc() -> None:
    snap = procstat.snapshot(pid=4242, proc=PROC)
    assert (snap.cpu_ticks, snap.voluntary, snap.involuntary) == (22, 1520, 6630)
    assert (snap.rw_syscalls, snap.rss_kib) == (30052 + 30005, 3536)
    later = procstat.Snapshot(
        t=snap.t + 2,
        cpu_ticks=snap.cpu_ticks + procstat.CLK_TCK,
        voluntary=1720,
        involuntary=6640,
        rw_syscalls=70057,
        rss_kib=4096,
    )
    res = procstat.resources(start=snap, end=later, rss_kib=[3072, 4096])
    assert res["cpu_usage_percent"] == pytest.approx(50)
    assert res["voluntary_context_switches_per_sec"] == pytest.approx(100)
    assert res["context_switches_per_sec"] == pytest.approx(105)
    assert res["system_calls_per_sec"] == pytest.approx(5000)
    assert res["memory_usage_mb"] == pytest.approx(3.5)


def test_a_busy_process_is_sampled_while_it_works() -> None:
    spin = "import time\nt = time.time()\nwhile True: pass"
    child = subprocess.Popen([sys.executable, "-c", spin])
    try:
        with procstat.Sampler(pid=child.pid, every=0.05) as sampler:
            subprocess.run([sys.executable, "-c", "import time; time.sleep(0.6)"], check=True)
        res = sampler.resources()
    finally:
        child.kill()
        child.wait()
    assert res["cpu_seconds"] > 0 and res["cpu_usage_percent"] > 0  # it spins
    assert res["memory_usage_mb"] > 1
    assert sampler.rss_kib and min(sampler.rss_kib) > 1024


def test_a_process_that_ends_inside_the_block_is_an_os_error() -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(0.3)"])
    with pytest.raises(OSError), procstat.Sampler(pid=child.pid):
        child.wait()
    assert child.returncode == 0
