"""Server/client pairs (serverpair.py) with real processes: a tiny Python TCP server that
forks a helper, says which port it listens on, and answers each connection in upper case."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from driving_demo import alive, gone

from benchdash_runner import serverpair
from benchdash_runner.processes import Processes
from benchdash_runner.serverpair import ServerSpec

# argv: port (0: any), seconds before listening, a folder for the pids of it and its helper;
# exits at once with code 7 when the port is -1.
SERVER = """
import os, socket, subprocess, sys, time
port, delay, pids = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
if port < 0:
    print("cannot bind: bad port", flush=True)
    raise SystemExit(7)
# the helper sleeps until its parent is gone (a test that never stops the server leaves nothing)
WATCH = "import os, time\\nppid = os.getppid()\\nwhile os.getppid() == ppid: time.sleep(0.1)"
helper = subprocess.Popen([sys.executable, "-c", WATCH])
for pid in (os.getpid(), helper.pid):
    open(os.path.join(pids, str(pid)), "w").close()
time.sleep(delay)
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", port))
s.listen()
print(f"listening on port {s.getsockname()[1]}", flush=True)
while True:
    c, _ = s.accept()
    c.sendall(c.recv(100).upper())
    c.close()
"""


@pytest.fixture
def server_py(tmp_path: Path) -> Path:
    path = tmp_path / "server.py"
    path.write_text(SERVER)
    (tmp_path / "pids").mkdir()
    return path


@pytest.fixture
def procs() -> Iterator[Processes]:
    started = Processes()
    yield started
    started.stop_all()


def spec(
    server_py: Path, name: str, *, port: int = 0, delay: float = 0.0, timeout_s: float = 15.0
) -> ServerSpec:
    """The test server: on a fixed port (port > 0) or on the one it prints."""
    cmd = [sys.executable, str(server_py), str(port), str(delay), str(server_py.parent / "pids")]
    return ServerSpec(
        name=name,
        cmd=cmd,
        log_path=server_py.parent / f"{name}.log",
        port=port if port > 0 else None,
        port_pattern=None if port > 0 else r"listening on port (\d+)",
        ready_timeout_s=timeout_s,
    )


def pids_of(server_py: Path) -> list[int]:
    return [int(p.name) for p in (server_py.parent / "pids").iterdir()]


def ask(server: serverpair.Server, text: bytes) -> bytes:
    with socket.create_connection((server.host, server.port), timeout=5) as c:
        c.sendall(text)
        return c.recv(100)


def test_servers_answer_on_the_printed_and_the_fixed_port_then_all_are_stopped(
    server_py: Path, procs: Processes
) -> None:
    fixed = serverpair.free_port()
    specs = [spec(server_py, "ours"), spec(server_py, "ref", port=fixed, delay=0.3)]
    with serverpair.serve(procs, specs=specs) as up:
        assert up["ref"].port == fixed and up["ref"].url == f"http://127.0.0.1:{fixed}"
        assert up["ours"].port != fixed
        assert ask(up["ours"], b"ping") == b"PING"
        assert ask(up["ref"], b"pong") == b"PONG"
        pids = pids_of(server_py)
        assert len(pids) == 4 and all(alive(p) for p in pids)  # two servers, two helpers
    assert gone(pids) == []
    assert procs.running == []


@pytest.mark.parametrize("error", [RuntimeError, KeyboardInterrupt])
def test_an_error_in_the_block_stops_every_server_and_its_helpers(
    server_py: Path, procs: Processes, error: type[BaseException]
) -> None:
    with pytest.raises(error), serverpair.serve(procs, specs=[spec(server_py, "a")]):
        assert len(pids_of(server_py)) == 2
        raise error("the client broke")
    assert gone(pids_of(server_py)) == []
    assert procs.running == []


def test_a_server_that_exits_is_named_with_its_log_and_the_started_one_is_stopped(
    server_py: Path, procs: Processes
) -> None:
    specs = [spec(server_py, "first"), spec(server_py, "broken", port=-1)]
    failed = pytest.raises(
        serverpair.ServerNotReady, match=r"broken exited with code 7: cannot bind"
    )
    with failed, serverpair.serve(procs, specs=specs):
        pytest.fail("the block must not run")
    pids = pids_of(server_py)
    assert len(pids) == 2  # the first server and its helper
    assert gone(pids) == []
    assert procs.running == []


def test_a_server_that_never_listens_times_out(server_py: Path, procs: Processes) -> None:
    slow = spec(server_py, "slow", delay=30, timeout_s=0.5)
    failed = pytest.raises(serverpair.ServerNotReady, match="slow did not listen in time")
    with failed, serverpair.serve(procs, specs=[slow]):
        pytest.fail("the block must not run")
    assert gone(pids_of(server_py)) == []


# SIGKILL lands asynchronously: the client waits until the server has really ended (a zombie
# or gone), so that "it died during the client's run" holds when the client exits.
KILL_AND_WAIT = """
import os, time
os.kill({pid}, 9)
for _ in range(500):
    try:
        state = open("/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
    except OSError:
        break
    if state in ("Z", "X"):
        break
    time.sleep(0.01)
"""


def test_a_client_run_samples_its_server_and_notices_it_dying(
    server_py: Path, procs: Processes
) -> None:
    client = [sys.executable, "-c", "import time; print('done'); time.sleep(0.3)"]
    with serverpair.serve(procs, specs=[spec(server_py, "s")]) as up:
        run = serverpair.run_client(procs, cmd=client, sample=up["s"])
        assert (run.code, run.output) == (0, "done")
        assert run.resources is not None and run.resources["memory_usage_mb"] > 1
        kill = [sys.executable, "-c", KILL_AND_WAIT.format(pid=up["s"].pid)]
        with pytest.raises(serverpair.ServerGone, match=r"s \(pid \d+\) ended"):
            serverpair.run_client(procs, cmd=kill, sample=up["s"])
    plain = serverpair.run_client(procs, cmd=[sys.executable, "-c", "raise SystemExit(3)"])
    assert (plain.code, plain.resources) == (3, None)


def test_only_one_way_to_know_the_port() -> None:
    both = ServerSpec(name="x", cmd=["true"], log_path=Path("x"), port=1, port_pattern="(1)")
    with pytest.raises(ValueError, match="exactly one of port and port_pattern"):
        serverpair.wait_ready(spec=both, child=None)  # type: ignore[arg-type]


def test_a_free_port_can_be_bound() -> None:
    port = serverpair.free_port()
    with socket.socket() as s:
        s.bind(("127.0.0.1", port))
    assert 0 < port < 65536


@pytest.mark.skipif(shutil.which("taskset") is None, reason="taskset is not installed")
def test_cpus_split_between_servers_and_client() -> None:
    assert serverpair.cpu_split(cpus=[1, 0]) == serverpair.CpuSplit(
        server_cpus="0", client_cpus="1"
    )
    halves = serverpair.cpu_split(cpus=[0, 1, 2, 3])
    assert (halves.server_cpus, halves.client_cpus) == ("0,1", "2,3")
    assert serverpair.cpu_split(cpus=[0, 1, 2]).client_cpus == "1,2"
    one = serverpair.cpu_split(cpus=[0, 1, 2, 3], server_cpus=1)
    assert (one.server_cpus, one.client_cpus) == ("0", "1,2,3")
    assert one.server(["srv"]) == ["taskset", "-c", "0", "srv"]
    assert one.client(["wrk", "-t2"]) == ["taskset", "-c", "1,2,3", "wrk", "-t2"]
    assert serverpair.cpu_split(cpus=[0, 1], server_cpus=5).client_cpus == "1"  # one left


def test_without_taskset_the_split_pins_with_sched_setaffinity(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")  # no taskset to find
    split = serverpair.cpu_split(cpus=[0, 1])
    assert (split.server_cpus, split.client_cpus, split.how) == ("0", "1", "sched_setaffinity")
    assert split.client(["wrk"])[:2] == [sys.executable, "-c"]
    assert split.client(["wrk"])[-2:] == ["1", "wrk"]


def test_one_cpu_or_pinning_off_leaves_commands_alone() -> None:
    for split in (serverpair.cpu_split(cpus=[3]), serverpair.cpu_split(enabled=False)):
        assert not split.pinned and split == serverpair.CpuSplit()
        assert split.server(["srv"]) == ["srv"] and split.client(["wrk"]) == ["wrk"]


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs 2 CPUs")
@pytest.mark.parametrize("how", ["taskset", "sched_setaffinity"])
def test_a_pinned_client_and_server_run_on_their_cpus_only(procs: Processes, how: str) -> None:
    if how == "taskset" and shutil.which("taskset") is None:
        pytest.skip("taskset is not installed")
    cpus = sorted(os.sched_getaffinity(0))
    split = serverpair.CpuSplit(server_cpus=str(cpus[0]), client_cpus=str(cpus[-1]), how=how)
    show = [sys.executable, "-c", "import os; print(sorted(os.sched_getaffinity(0)))"]
    assert procs.run(split.client(show), echo=False) == (0, str([cpus[-1]]))
    assert procs.run(split.server(show), echo=False) == (0, str([cpus[0]]))


def test_rounds_alternate_who_goes_first() -> None:
    assert serverpair.alternate(["ours", "ref"], round_no=0) == ["ours", "ref"]
    assert serverpair.alternate(["ours", "ref"], round_no=1) == ["ref", "ours"]
    assert serverpair.alternate(["ours"], round_no=3) == ["ours"]


def test_sigkill_of_a_stopped_server_group_is_not_needed_twice(
    server_py: Path, procs: Processes
) -> None:
    with serverpair.serve(procs, specs=[spec(server_py, "s")]) as up:
        os.killpg(up["s"].pid, signal.SIGKILL)  # gone before the block ends
    assert gone(pids_of(server_py)) == []
    assert procs.running == []
