"""A real Go CPU profile, recorded here from a tiny Go program, through pprof2folded.

Needs the Go toolchain (and github.com/google/pprof from the module cache or the Go proxy).
"""

from __future__ import annotations

import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

from benchdash_runner import driving, pprof

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(shutil.which("go") is None, reason="the Go toolchain is missing")

# Burns about 300 ms of CPU time under a CPU profile, about 3/4 in main.crunch and 1/4 in
# main.stir (both called from main.main): two stacks, so a tight budget has something to fold
# (with ~30 samples, stir goes unsampled about once in 5,000 runs).
PROGRAM = """
package main

import (
\t"os"
\t"runtime/pprof"
\t"syscall"
\t"time"
)

var sink uint64

//go:noinline
func crunch(h uint64) uint64 {
\tfor i := 0; i < 200_000; i++ {
\t\th ^= h << 13
\t\th ^= h >> 7
\t\th ^= h << 17
\t}
\treturn h
}

//go:noinline
func stir(h uint64) uint64 {
\tfor i := 0; i < 66_000; i++ {
\t\th ^= h << 11
\t\th ^= h >> 5
\t\th ^= h << 19
\t}
\treturn h
}

func cpu() time.Duration {
\tvar ru syscall.Rusage
\tsyscall.Getrusage(syscall.RUSAGE_SELF, &ru)
\treturn time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func main() {
\tf, err := os.Create(os.Args[1])
\tif err != nil {
\t\tpanic(err)
\t}
\tif err := pprof.StartCPUProfile(f); err != nil {
\t\tpanic(err)
\t}
\tstart, deadline := cpu(), time.Now().Add(10*time.Second)
\tfor cpu()-start < 300*time.Millisecond && time.Now().Before(deadline) {
\t\tsink = stir(crunch(sink + 1))
\t}
\tpprof.StopCPUProfile()
\tf.Close()
}
"""


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[driving.Driver, Path, Path]:
    """(a driver, pprof2folded built by it, a CPU profile the tiny program just wrote)."""
    tmp = tmp_path_factory.mktemp("tiny")
    (tmp / "go.mod").write_text("module tiny\n\ngo 1.24\n")
    (tmp / "main.go").write_text(textwrap.dedent(PROGRAM))
    subprocess.run(["go", "build", "-o", "tiny", "."], cwd=tmp, check=True)
    profile = tmp / "cpu.pprof"
    subprocess.run([str(tmp / "tiny"), str(profile)], check=True, timeout=60)
    manifest = {"system": "demo", "source": "."}
    drv = driving.Driver(manifest=manifest, profile_name="quick", out=tmp, scenarios=[], root=ROOT)
    return drv, pprof.build_tool(drv), profile


def test_a_recorded_profile_becomes_a_cpu_profile_field(
    recorded: tuple[driving.Driver, Path, Path],
) -> None:
    drv, tool, profile = recorded
    field = pprof.go_cpu_profile(drv, tool, profile, metric="qps")
    assert {k: v for k, v in field.items() if k != "stacks"} == {
        "kind": "cpu",
        "unit": "nanoseconds",
        "metric": "qps",
        "format": "folded",
    }
    stacks = pprof.parse_folded(field["stacks"])
    total = sum(stacks.values())
    assert total >= 100_000_000  # about 300 ms of CPU, sampled every 10 ms
    assert all(w % 1000 == 0 for w in stacks.values())  # nanoseconds, not sample counts
    hot = {s: w for s, w in stacks.items() if "main.crunch" in s}
    assert sum(hot.values()) * 2 >= total
    for frames in hot:  # root-first: the runtime calls main.main, which calls crunch
        assert frames[:3] == ("runtime.main", "main.main", "main.crunch"), frames
    assert not any(":" in f for s in stacks for f in s)  # function names only, no file:line


def test_a_tight_budget_folds_the_recorded_profile(
    recorded: tuple[driving.Driver, Path, Path],
) -> None:
    drv, tool, profile = recorded
    whole = pprof.parse_folded(pprof.go_cpu_profile(drv, tool, profile)["stacks"])
    small = pprof.parse_folded(pprof.go_cpu_profile(drv, tool, profile, max_bytes=60)["stacks"])
    assert sum(small.values()) == sum(whole.values())
    assert len(pprof.render_folded(small)) <= 60 < len(pprof.render_folded(whole))


def test_a_file_that_is_no_profile_fails_the_driver(
    recorded: tuple[driving.Driver, Path, Path], tmp_path: Path
) -> None:
    drv, tool, _ = recorded
    junk = tmp_path / "junk.pprof"
    junk.write_text("not a profile")
    with pytest.raises(SystemExit) as exit_:
        pprof.go_cpu_profile(drv, tool, junk)
    assert exit_.value.code == 1


def test_the_go_unit_tests_of_pprof2folded_pass() -> None:
    done = subprocess.run(
        ["go", "test", "-count=1", "./..."],
        cwd=ROOT / pprof.TOOL,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok" in done.stdout
