"""Properties every adapter shares: garbled or foreign input is an error naming the file."""

from pathlib import Path

import pytest

from benchdash_runner import adapters
from benchdash_runner.adapters import AdapterError

JSON_INPUTS = {
    "asv": "asv/results/capture/7f33971a-existing-py_tmp_fmt_pyv_bin_python3.json",
    "benchdash": "benchdash/uvhttp_quick.json",
    "bmf": "bmf/gobench.json",
    "gab-bigger": "gab/bigger.json",
    "gab-smaller": "gab/smaller.json",
    "gbench": "gbench/repetitions.json",
    "hyperfine": "hyperfine/sleep.json",
    "jmh": "jmh/modes.json",
    "k6": "k6/index.json",
    "oha": "oha/index.json",
    "pyperf": "pyperf/suite.json",
    "pytest-benchmark": "pytest-benchmark/benchmark.json",
    "vitest": "vitest/bench.json",
}


@pytest.mark.parametrize("fmt", sorted(JSON_INPUTS))
def test_truncated_json_names_file_and_line(fmt: str, testdata: Path, tmp_path: Path) -> None:
    text = (testdata / JSON_INPUTS[fmt]).read_text()
    lines = text.splitlines()
    bad = tmp_path / "cut.json"
    if len(lines) < 6:  # written on one line (asv, pyperf): cut it in the middle
        bad.write_text(text[: len(text) // 2])
    else:
        bad.write_text("\n".join(lines[: max(3, len(lines) // 2)]))
    with pytest.raises(AdapterError) as err:
        adapters.parse(fmt, [bad])
    assert err.value.path == bad
    assert err.value.line is not None
    assert str(err.value).startswith(f"{bad}:{err.value.line}: invalid JSON")


@pytest.mark.parametrize("fmt", adapters.names())
def test_binary_garbage_is_named(fmt: str, tmp_path: Path) -> None:
    bad = tmp_path / "garbage.bin"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff\xfe")
    with pytest.raises(AdapterError, match=r"garbage\.bin"):
        adapters.parse(fmt, [bad])


@pytest.mark.parametrize("fmt", sorted(JSON_INPUTS))
def test_wrong_json_tool_is_refused(fmt: str, testdata: Path) -> None:
    other = "gab/bigger.json" if fmt not in ("gab-bigger", "gab-smaller") else "bmf/gobench.json"
    with pytest.raises(AdapterError):
        adapters.parse(fmt, [testdata / other])
