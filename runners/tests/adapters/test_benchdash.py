import json
from pathlib import Path

import pytest

from benchdash_runner import adapters
from benchdash_runner.adapters import AdapterError, benchdash


def test_document_results_as_is(testdata: Path) -> None:
    path = testdata / "benchdash/uvhttp_quick.json"
    results = benchdash.parse([path])
    assert results == json.loads(path.read_text())["results"]
    assert benchdash.load_document(path)["system"] == "uvhttp"


def test_unknown_direction_names_file_and_field(testdata: Path, tmp_path: Path) -> None:
    doc = json.loads((testdata / "benchdash/uvhttp_quick.json").read_text())
    doc["results"][0]["metrics"][2]["direction"] = "up"
    f = tmp_path / "r.json"
    f.write_text(json.dumps(doc))
    with pytest.raises(AdapterError, match=r"r.json: .*results\[0\]\.metrics\[2\]\.direction"):
        benchdash.parse([f])


def test_registry_knows_every_format() -> None:
    assert adapters.names() == [
        "ab",
        "asv",
        "benchdash",
        "bmf",
        "catch2",
        "criterion",
        "gab-bigger",
        "gab-smaller",
        "gbench",
        "gobench",
        "gotest-json",
        "gungraun",
        "hey",
        "hyperfine",
        "jmh",
        "k6",
        "libtest",
        "oha",
        "pyperf",
        "pytest-benchmark",
        "vitest",
        "wrk",
    ]
    with pytest.raises(KeyError, match="gab needs a direction"):
        adapters.get("gab")
