import socket
from pathlib import Path

from benchdash_runner import environment


def test_detect_has_every_field() -> None:
    env = environment.detect("GCC", "12.2.0")
    assert set(env) == {"os", "cpu", "cores", "memory_mb", "compiler", "compiler_version"}
    assert env["cores"] >= 1
    assert (env["compiler"], env["compiler_version"]) == ("GCC", "12.2.0")
    assert env["memory_mb"] % 1024 == 0


def test_os_name_keeps_major_minor() -> None:
    assert environment.os_name("Linux", "6.18.44-fc-v657") == "Linux 6.18"
    assert environment.os_name("Darwin", "23.4.0") == "Darwin 23.4"
    assert environment.os_name("", "") == "unknown"


def test_proc_files_parsed(tmp_path: Path) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nmodel name\t: AMD Ryzen 7  5800H with Radeon\n")
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:       12582912 kB\nMemFree:  1 kB\n")
    assert environment.cpu_model(cpuinfo) == "AMD Ryzen 7 5800H with Radeon"
    assert environment.memory_mb(meminfo) == 12288


def test_a_runner_names_its_testbed_after_the_host_unless_told() -> None:
    # A runner's runs keep one testbed across compiler or kernel updates: the host's name.
    assert environment.testbed_name({}) == socket.gethostname()
    assert environment.testbed_name({"BENCHDASH_TESTBED": " lab-7 "}) == "lab-7"
    assert environment.testbed_name({"BENCHDASH_TESTBED": ""}) == socket.gethostname()
