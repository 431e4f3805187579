"""`benchdash_runner.driving` stops every process it started, on every way out."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from driving_demo import finish, gone, proc_stat, start, wait_for_pids


def test_sigterm_stops_every_child_and_grandchild(demo: Path) -> None:
    proc = start(demo, "sigterm")
    pids = wait_for_pids(demo, 3, proc)  # server, its own child, the foreground tool
    proc.send_signal(signal.SIGTERM)  # the driver alone, not its group
    code, _ = finish(proc)
    assert code == 128 + signal.SIGTERM
    assert gone(pids) == []


def test_an_exception_stops_every_child(demo: Path) -> None:
    code, out = finish(start(demo, "exception"))
    assert code == 1 and "the driver broke while its children ran" in out
    pids = [int(p.name) for p in (demo / "out" / "pids").glob("*")]
    assert len(pids) == 3
    assert gone(pids) == []


def test_kill_9_of_the_driver_kills_its_children(demo: Path) -> None:
    proc = start(demo, "sigkill")
    pids = wait_for_pids(demo, 3, proc)
    children = [p for p in pids if int(proc_stat(p)[1]) == proc.pid]
    assert len(children) == 2  # the server and the foreground tool
    proc.kill()
    finish(proc)
    assert gone(children) == []  # Linux killed them (PR_SET_PDEATHSIG)
    # The server's own child is out of reach of a killed driver: the agent's kill of the
    # driver's process group, or its SIGTERM on the agent's death, covers it.
    orphans = [p for p in pids if p not in children]
    for pid in orphans:
        os.kill(pid, signal.SIGKILL)
    assert gone(orphans) == []
