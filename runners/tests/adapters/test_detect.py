"""`--format auto`: every captured fixture is detected as its own format, and nothing is guessed."""

import json
from pathlib import Path

import pytest

from benchdash_runner import adapters, cli, document
from benchdash_runner.adapters import AdapterError, detect

TESTDATA = Path(__file__).resolve().parents[2] / "testdata"

# Every tool output under testdata/ and its format (the list is checked to be complete below).
FIXTURES = {
    "ab/index.txt": "ab",
    "ab/missing.txt": "ab",
    "asv/results/capture/7f33971a-existing-py_tmp_fmt_pyv_bin_python3.json": "asv",
    "benchdash/uvhttp_quick.json": "benchdash",
    "bmf/gobench.json": "bmf",
    "catch2/bench.xml": "catch2",
    "criterion/criterion": "criterion",
    "criterion/relay": "criterion",
    "gab/bigger.json": "gab-bigger",
    "gab/smaller.json": "gab-smaller",
    "gbench/aggregates_only.json": "gbench",
    "gbench/repetitions.json": "gbench",
    "gobench/bench.txt": "gobench",
    "gotest-json/bench.jsonl": "gotest-json",
    "gungraun/changed.txt": "gungraun",
    "gungraun/first_run.txt": "gungraun",
    "gungraun/relay/instructions.txt": "gungraun",
    "gungraun/relay/slowdown.txt": "gungraun",
    "hey/index.txt": "hey",
    "hey/missing.txt": "hey",
    "hyperfine/parameter_scan.json": "hyperfine",
    "hyperfine/sleep.json": "hyperfine",
    "jmh/gc.json": "jmh",
    "jmh/modes.json": "jmh",
    "k6/groups.json": "k6",
    "k6/index.json": "k6",
    "libtest/bench.txt": "libtest",
    "oha/index.json": "oha",
    "oha/missing.json": "oha",
    "pyperf/suite.json": "pyperf",
    "pyperf/timeit.json": "pyperf",
    "pytest-benchmark/benchmark.json": "pytest-benchmark",
    "vitest/bench.json": "vitest",
    "wrk/latency.txt": "wrk",
    "wrk/non2xx.txt": "wrk",
    "wrk/plain.txt": "wrk",
    "wrk/rounds.txt": "wrk",
    "wrk/socket_errors.txt": "wrk",
    "wrk/uvhttp/low_nginx.txt": "wrk",
    "wrk/uvhttp/low_uvhttp.txt": "wrk",
    "wrk/uvhttp/notfound_uvhttp.txt": "wrk",
    "wrk/uvhttp/post_uvhttp.txt": "wrk",
}
# Files beside the tool output that are not results of their own.
NOT_OUTPUT = (
    "README.md",  # provenance
    "/src/",  # the sources that produced the numbers
    "bmf/derive.py.txt",  # the script that wrote bmf/ and gab/
    "asv/results/benchmarks.json",  # asv's description of the benchmarks (read beside results)
    "asv/results/capture/machine.json",
    "wrk/uvhttp/proc/",  # /proc snapshots and records of the uvhttp driver's tests
    "wrk/uvhttp/records/",
    "pytest-benchmark/rounds_200k.json.gz",  # tested decompressed (test below)
    "gungraun/relay/callgrind",  # Callgrind's own files (profiles, not an upload format)
)


def _tool_outputs() -> set[str]:
    found = set()
    for f in TESTDATA.rglob("*"):
        rel = f.relative_to(TESTDATA).as_posix()
        if (
            not f.is_file()
            or any(n in f"/{rel}" for n in NOT_OUTPUT)
            or rel.startswith("criterion/")
        ):
            continue
        found.add(rel)
    return found


def test_every_fixture_is_listed() -> None:
    listed = {k for k in FIXTURES if not k.startswith("criterion/")}
    assert _tool_outputs() == listed
    # and every format (one of gab's two directions each) has at least one fixture
    assert set(FIXTURES.values()) == set(adapters.names())


@pytest.mark.parametrize("rel", sorted(FIXTURES))
def test_auto_chooses_right_and_the_file_parses(rel: str) -> None:
    path = TESTDATA / rel
    assert detect.detect(path) == FIXTURES[rel]
    results = adapters.parse(FIXTURES[rel], [path])
    document.build(system="x", results=results)  # a valid document: units, directions, names


def test_auto_on_the_large_pytest_benchmark_file(rounds_200k: Path) -> None:
    assert detect.detect(rounds_200k) == "pytest-benchmark"


def test_gzip_is_refused_with_advice() -> None:
    with pytest.raises(AdapterError, match="gzip-compressed: decompress it first"):
        detect.detect(TESTDATA / "pytest-benchmark/rounds_200k.json.gz")


def test_unknown_file_is_refused_naming_it(tmp_path: Path) -> None:
    f = tmp_path / "notes.txt"
    f.write_text("ran the benchmarks, all fine\n")
    with pytest.raises(AdapterError) as err:
        detect.detect(f)
    assert str(err.value).startswith(f"{f}: cannot tell the format; give --format (known: ab,")


def test_broken_json_says_so(tmp_path: Path) -> None:
    f = tmp_path / "cut.json"
    f.write_text('{"benchmarks": [1, 2,\n  "x": }\n')
    with pytest.raises(AdapterError, match=r"cut.json: cannot tell the format \(looks like JSON"):
        detect.detect(f)


def test_two_formats_in_one_file_are_ambiguous(tmp_path: Path) -> None:
    both = tmp_path / "both.txt"
    both.write_text(
        (TESTDATA / "gobench/bench.txt").read_text() + (TESTDATA / "libtest/bench.txt").read_text()
    )
    with pytest.raises(
        AdapterError, match=r"both.txt: matches several formats \(gobench, libtest\)"
    ):
        detect.detect(both)


def test_gab_with_mixed_units_is_refused(tmp_path: Path) -> None:
    items = json.loads((TESTDATA / "gab/bigger.json").read_text())
    items += json.loads((TESTDATA / "gab/smaller.json").read_text())
    f = tmp_path / "mixed.json"
    f.write_text(json.dumps(items))
    with pytest.raises(AdapterError, match="units mix rates and costs"):
        detect.detect(f)


def test_files_of_different_formats_are_refused() -> None:
    paths = [TESTDATA / "ab/index.txt", TESTDATA / "hey/index.txt"]
    with pytest.raises(
        AdapterError, match=r"inputs are in different formats \(.*ab/index.txt is ab"
    ):
        detect.detect_all(paths)


def test_cli_says_which_format_it_chose(clean_env, capsys) -> None:
    path = str(TESTDATA / "jmh/gc.json")
    args = ["convert", "--format", "auto", "--system", "x", path, "-o", "-"]
    assert cli.main(args) == 0
    out = capsys.readouterr()
    assert f"--format auto: {path}: jmh" in out.err
    assert json.loads(out.out)["results"][0]["benchmark"] == "bd.SmallBench.sortCopy"


def test_cli_refuses_what_it_cannot_tell(clean_env, tmp_path: Path, capsys) -> None:
    f = tmp_path / "notes.txt"
    f.write_text("hello\n")
    assert cli.main(["convert", "--format", "auto", "--system", "x", str(f), "-o", "-"]) == 1
    err = capsys.readouterr().err
    assert f"{f}: cannot tell the format" in err and err.startswith("benchdash: error:")
