"""benchdash_runner.pprof: folded stacks (parse, render, cap into `[other]`) and attaching."""

from __future__ import annotations

import random

import pytest

from benchdash_runner import document, pprof
from benchdash_runner.pprof import OTHER, TRUNCATED, cap_stacks, parse_folded, render_folded


def test_parse_and_render_round_trip() -> None:
    text = "main;pkg.(*T).Run;pkg.work 30\n\nmain;pkg.(*T).Run 7\nmain;a b;c d 5\nmain 0\n"
    stacks = parse_folded(text + "main;pkg.(*T).Run 3\n")
    assert stacks == {
        ("main", "pkg.(*T).Run", "pkg.work"): 30,
        ("main", "pkg.(*T).Run"): 10,  # repeated stacks add up
        ("main", "a b", "c d"): 5,  # a frame may hold spaces: the weight is after the last
        ("main",): 0,
    }
    assert parse_folded(render_folded(stacks)) == stacks
    assert render_folded(stacks).splitlines()[0] == "main 0"  # sorted by stack


@pytest.mark.parametrize(
    "line", ["main;work", "main;work -3", "main;work 1.5", " 4", "main;;work 4", f"a {2**63}"]
)
def test_parse_rejects_a_bad_line_naming_it(line: str) -> None:
    with pytest.raises(ValueError, match=r"^line 2: "):
        parse_folded(f"main 1\n{line}\n")


def test_small_profiles_are_kept_as_they_are() -> None:
    stacks = {("main", "f"): 5, ("main", "g"): 7, ("main",): 1}
    assert cap_stacks(stacks) == stacks
    assert cap_stacks({**stacks, ("main", "h"): 0}) == stacks  # zero weights carry nothing


def test_the_lightest_are_folded_into_other_under_their_parent() -> None:
    stacks = {
        ("main", "hot"): 1000,
        ("main", "warm", "a"): 300,
        ("main", "warm", "b"): 2,
        ("main", "warm", "c"): 1,
        ("main", "cold", "x"): 3,
        ("main", "cold", "y"): 4,
    }
    capped = cap_stacks(stacks, max_stacks=4)
    assert capped == {
        ("main", "hot"): 1000,
        ("main", "warm", "a"): 300,
        ("main", "warm", OTHER): 3,
        ("main", "cold", OTHER): 7,
    }
    # With room for one stack only, everything under the root frame ends in [other].
    assert cap_stacks(stacks, max_stacks=1) == {("main", OTHER): 1310}
    two_roots = {**stacks, ("init", "f"): 1}
    assert cap_stacks(two_roots, max_stacks=1) == {(OTHER,): 1311}
    assert cap_stacks(capped, max_stacks=4) == capped  # capping again changes nothing


def _random_profile(rng: random.Random, n: int) -> dict[tuple[str, ...], int]:
    names = [f"pkg.f{i}" for i in range(40)]
    out: dict[tuple[str, ...], int] = {}
    for _ in range(n):
        depth = rng.randint(2, 12)
        frames = ("main", *rng.choices(names, k=depth - 1))
        out[frames] = out.get(frames, 0) + int(rng.paretovariate(1.2) * 1000)
    return out


def _inclusive(stacks: dict[tuple[str, ...], int]) -> dict[tuple[str, ...], int]:
    """Inclusive weight of every prefix (path from the root) of the stacks."""
    out: dict[tuple[str, ...], int] = {}
    for s, w in stacks.items():
        for i in range(1, len(s) + 1):
            out[s[:i]] = out.get(s[:i], 0) + w
    return out


@pytest.mark.parametrize("seed", range(8))
def test_capping_keeps_the_total_and_every_kept_frame_exact(seed: int) -> None:
    rng = random.Random(seed)
    stacks = _random_profile(rng, 3000)
    limit = rng.choice([50, 300, 1000, 2500])
    capped = cap_stacks(stacks, max_stacks=limit)
    assert 1 <= len(capped) <= limit < len(stacks)
    assert sum(capped.values()) == sum(stacks.values())
    assert all(capped[s] == stacks[s] for s in capped if s[-1] != OTHER)
    assert any(s[-1] == OTHER for s in capped)
    prefixes = {s[:i] for s in capped for i in range(1, len(s) + (s[-1] != OTHER))}
    before, after = _inclusive(stacks), _inclusive(capped)
    for prefix in prefixes:  # every frame kept has its exact inclusive weight
        assert after[prefix] == before[prefix], prefix


def test_deep_stacks_keep_their_leaf_end() -> None:
    deep = tuple(f"f{i}" for i in range(300))
    ((frames, weight),) = cap_stacks({deep: 9}).items()
    assert len(frames) == pprof.MAX_DEPTH and weight == 9
    assert frames[0] == TRUNCATED and frames[-1] == "f299" and frames[1] == "f45"


def test_a_byte_budget_folds_more() -> None:
    stacks = _random_profile(random.Random(3), 2000)
    full = render_folded(cap_stacks(stacks))
    capped = cap_stacks(stacks, max_bytes=len(full) // 5)
    assert len(render_folded(capped).encode()) <= len(full) // 5
    assert sum(capped.values()) == sum(stacks.values())
    assert cap_stacks({("main", "a_long_function_name"): 1}, max_bytes=10) == {(OTHER,): 1}
    with pytest.raises(ValueError, match="no folding fits in 9 bytes"):
        cap_stacks({("main", "a_long_function_name"): 1}, max_bytes=9)


def test_attach_finds_the_entry_and_keeps_only_a_metric_it_has() -> None:
    results = [
        {"benchmark": "s", "parameters": {"mode": "saturate"}, "metrics": [_m("throughput")]},
        {"benchmark": "s", "parameters": {"mode": "paced"}, "metrics": [_m("errors")]},
        {"benchmark": "tcp_reference", "parameters": {"mode": "paced"}, "metrics": [_m("x")]},
    ]
    prof = pprof.profile_field({("main",): 1}, kind="cpu", unit="nanoseconds", metric="throughput")
    assert prof == {
        "kind": "cpu",
        "unit": "nanoseconds",
        "metric": "throughput",
        "format": "folded",
        "stacks": "main 1\n",
    }
    assert pprof.attach(results, prof, benchmark="s", parameters={"mode": "paced"})
    assert "profile" not in results[0] and "profile" not in results[2]
    assert results[1]["profile"] == {k: v for k, v in prof.items() if k != "metric"}
    assert pprof.attach(results, prof, benchmark="s")  # the first entry of that name
    assert results[0]["profile"]["metric"] == "throughput"
    assert not pprof.attach(results, prof, benchmark="missing")
    document.validate({"schema": document.SCHEMA, "system": "demo", "results": results})


def _m(name: str) -> dict[str, object]:
    return document.metric(name, "x", "higher_is_better", value=1.0)


def test_a_runs_profiles_share_a_byte_budget() -> None:
    assert pprof.byte_budget(1) == pprof.PROFILES_BUDGET
    assert pprof.byte_budget(4) * 4 == pprof.PROFILES_BUDGET
    assert pprof.byte_budget(1000) == 64 << 10
