"""relay's instrumented profile: real Gungraun output of benches/instructions.rs → benchdash/v1.

`testdata/gungraun/relay/` holds `cargo bench --bench instructions` output captured on this
project's machine: a normal run, and one built with `--features inject-slowdown`
(hexcodec::decode_into does extra work); see testdata/gungraun/README.md.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

import pytest

from benchdash_runner import document, driving, profiles
from benchdash_runner.adapters import gungraun as gungraun_adapter

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "testdata" / "gungraun" / "relay"
sys.path.insert(0, str(ROOT / "relay"))

import relay_callgrind  # noqa: E402

MANIFEST = tomllib.loads((ROOT / "relay" / "runner.toml").read_text())
IDS: list[str] = MANIFEST["profiles"]["instructions"]["scenarios"]


def _results(name: str) -> dict[str, dict[str, object]]:
    return relay_callgrind.to_results(gungraun_adapter.parse([DATA / name]), IDS)


def _count(results: dict[str, dict[str, object]], full_id: str, metric: str) -> float:
    metrics = results[full_id]["metrics"]
    assert isinstance(metrics, list)
    return float(next(m["value"] for m in metrics if m["name"] == metric))


def test_every_scenario_is_named_as_criterion_names_it() -> None:
    found = _results("instructions.txt")
    assert list(found) == IDS or set(found) == set(IDS)
    assert found["encryption/10"]["benchmark"] == "encryption"
    assert found["encryption/10"]["parameters"] == {"input": 10}
    assert found["sse_parsing/message_start"]["parameters"] == {"input": "message_start"}
    assert found["simple_serialize"] == {
        "benchmark": "simple_serialize",
        "parameters": {},
        "metrics": found["simple_serialize"]["metrics"],
    }


def test_instructions_and_cycles_only_with_the_manifests_units() -> None:
    found = _results("instructions.txt")
    for result in found.values():
        metrics = result["metrics"]
        assert isinstance(metrics, list)
        assert [(m["name"], m["unit"], m["direction"]) for m in metrics] == [
            ("instructions", "instructions", "lower_is_better"),
            ("estimated_cycles", "cycles", "lower_is_better"),
        ]
    # Counts grow with the input: AES + hex of 10 kB is ~100x that of 100 B and more than 10 B.
    assert (
        _count(found, "encryption/10", "instructions")
        < _count(found, "encryption/1000", "instructions")
        < _count(found, "encryption/10000", "instructions")
    )


def test_the_profile_becomes_a_valid_document() -> None:
    found = _results("instructions.txt")
    results = [relay_callgrind.merge([found[i]]) for i in IDS]
    driving.check_against_manifest(results, MANIFEST)  # raises SystemExit on a mismatch
    doc = document.build(
        system="relay",
        run={"profile": "instructions", "branch": "main", "trigger": "manual"},
        results=results,
    )
    assert doc["schema"] == "benchdash/v1" and len(doc["results"]) == len(IDS)
    first = doc["results"][0]["metrics"][0]
    assert first["name"] == "instructions" and first["value"] > 0


def test_repeated_runs_become_samples_with_the_median_as_value() -> None:
    one = _results("instructions.txt")["decryption_uncached/1000"]
    other = _results("slowdown.txt")["decryption_uncached/1000"]
    merged = relay_callgrind.merge([one, one, other])
    ir = merged["metrics"][0]
    assert ir["samples"][:2] == [ir["value"], ir["value"]] and len(ir["samples"]) == 3


def test_the_injected_slowdown_shows_on_its_functions_only() -> None:
    base, slow = _results("instructions.txt"), _results("slowdown.txt")
    for full_id in IDS:
        before = _count(base, full_id, "instructions")
        change = (_count(slow, full_id, "instructions") - before) / before
        if full_id.startswith("decryption_uncached/"):
            # decode_into's extra work, growing with the input: past the 5 % warn line at 1 kB
            assert change > (0.05 if full_id != "decryption_uncached/10" else 0.01), full_id
        else:
            assert change == 0, full_id  # untouched code: the very same count


@pytest.mark.parametrize(
    ("function", "bench_id", "expected"),
    [
        ("encryption", "input_1000", ("encryption/1000", 1000)),
        (
            "sse_parsing",
            "content_block_delta",
            ("sse_parsing/content_block_delta", "content_block_delta"),
        ),
        ("simple_serialize", "only", ("simple_serialize", None)),
        ("encryption", "input_7", None),
        ("large_array", "input_10", None),
    ],
)
def test_gungraun_ids_map_to_profile_scenarios(
    function: str, bench_id: str, expected: tuple[str, object] | None
) -> None:
    assert relay_callgrind.criterion_id(function, bench_id, set(IDS)) == expected


def test_each_bench_gets_its_callgrind_profile_from_the_bench_function_down() -> None:
    found = relay_callgrind.profiles_of(DATA / "callgrind", IDS)
    assert set(found) == set(IDS)
    counts = _results("instructions.txt")
    for full_id, profile in found.items():
        assert profiles.problem(profile) is None
        assert (profile["kind"], profile["unit"], profile["metric"]) == ("instructions",) * 3
        lines = profile["stacks"].splitlines()
        # every instruction Gungraun counted is on a stack rooted at the bench function
        assert sum(int(line.rsplit(" ", 1)[1]) for line in lines) == _count(
            counts, full_id, "instructions"
        ), full_id
        function = full_id.split("/")[0]
        root = f"instructions::{function}::__gungraun_wrapper_mod::{function}"
        assert {line.split(";")[0].rsplit(" ", 1)[0] for line in lines} == {root}
    encrypt = profiles.self_costs(found["encryption/10000"]["stacks"])
    aes = "<aes::autodetect::Aes256 as cipher::block::BlockEncrypt>::encrypt_with_backend::inner"
    assert max(encrypt, key=encrypt.__getitem__) in (aes, "relay::crypto::CryptoService::encrypt")
    assert not any(re.search(r"::h[0-9a-f]{16}$", f) for f in encrypt)  # Rust hashes dropped
