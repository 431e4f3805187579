"""Callgrind files → folded stacks (benchdash_runner.callgrind and .profiles)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from benchdash_runner import callgrind, document, instrumented, profiles
from benchdash_runner.callgrind import CallGraph

# A hand-written file: compressed names, relative and `*` positions, a hex cost, two events
# (Ir second), an omitted trailing column (Ir 0), a jump line, and recursion (`walk'2`).
SMALL = """# callgrind format
version: 1
positions: instr line
events: Dr Ir
summary: 1000

ob=(1) /bin/app
fl=(1) app.c
fn=(1) main
0x10 3 1 5
+4 * 2 0x10
cfn=(2) work::h0123456789abcdef
calls=2 0x40 9
* +6 7 100
jump=1 0x20 4
+1 -2 9

fn=(2)
0x40 9 3 60
cfn=(3) walk
calls=1 0x80 20
0x44 10 5 40
fn=(3)
0x80 20 0 30
cfn=(4) walk'2
calls=1 0x80 20
0x84 21 0 10
fn=(4)
0x80 20 0 10
"""


def _graph(text: str) -> CallGraph:
    return callgrind.parse_text(text, CallGraph("Ir"))


def test_the_parser_reads_self_and_call_costs_of_the_asked_event() -> None:
    g = _graph(SMALL)
    assert dict(g.self_cost) == {"main": 5 + 16, "work": 60, "walk": 30 + 10}
    assert dict(g.calls) == {("main", "work"): 100, ("work", "walk"): 40, ("walk", "walk"): 10}
    assert g.total == 21 + 60 + 40
    dr = callgrind.parse_text(SMALL, CallGraph("Dr"))
    assert dr.self_cost["main"] == 1 + 2 + 9 and dr.calls[("main", "work")] == 7


def test_stacks_from_the_root_with_recursion_cut_and_exact_self_costs() -> None:
    stacks = profiles.fold(_graph(SMALL))
    # work's inclusive 100 = self 60 + walk 40; walk → walk (recursion) is cut, and walk's
    # share is scaled back to its self cost 40.
    assert stacks == {("main",): 21, ("main", "work"): 60, ("main", "work", "walk"): 40}
    assert profiles.text(stacks).splitlines()[0] == "main;work 60"


def test_a_function_called_from_two_places_is_split_by_the_call_costs() -> None:
    g = CallGraph("Ir")
    g.self_cost.update({"main": 10, "a": 0, "b": 0, "hash": 400})
    g.calls.update({("main", "a"): 300, ("main", "b"): 100, ("a", "hash"): 300})
    g.calls[("b", "hash")] = 100
    assert profiles.fold(g) == {
        ("main",): 10,
        ("main", "a", "hash"): 300,
        ("main", "b", "hash"): 100,
    }


def test_a_named_root_scopes_the_stacks_and_unreached_costs_stay_counted() -> None:
    g = CallGraph("Ir")
    g.self_cost.update({"start": 5, "bench": 7, "inner": 11, "orphan": 3})
    g.calls.update({("start", "bench"): 18, ("bench", "inner"): 11})
    stacks = profiles.fold(g, roots=["bench", "missing"])
    assert stacks == {("bench",): 7, ("bench", "inner"): 11, ("start",): 5, ("orphan",): 3}


def test_depth_is_capped_and_self_costs_stay_exact() -> None:
    g = CallGraph("Ir")
    chain = [f"f{i}" for i in range(200)]
    for i, f in enumerate(chain):
        g.self_cost[f] = 1
        if i + 1 < len(chain):
            g.calls[(f, chain[i + 1])] = len(chain) - i - 1
    stacks = profiles.fold(g)
    assert max(len(p) for p in stacks) == profiles.MAX_DEPTH
    assert profiles.self_costs(profiles.text(stacks)) == dict.fromkeys(chain, 1)


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("relay::crypto::encrypt::h0123456789abcdef", "relay::crypto::encrypt"),
        ("<T as core::fmt::Debug>::fmt::hdeadbeefdeadbeef'2", "<T as core::fmt::Debug>::fmt"),
        ("std::vector<int>::push_back(int const&)", "std::vector<int>::push_back()"),
        ("(anonymous namespace)::f(int) const", "(anonymous namespace)::f() const"),
        (
            "std::function<void (int)>::operator()(int) const",
            "std::function<void (int)>::operator()() const",
        ),
        ("a::operator<(a const&)", "a::operator<()"),
        ("(below main)", "(below main)"),
        (
            "ns::S::send(ns::S::send(char const*, unsigned long)::_ZN2ns1S4sendEPKcm.Frame*)"
            " [clone .actor]",
            "ns::S::send() [clone .actor]",
        ),
        ("a;b\nc", "a,b c"),
        ("  ", "[unknown]"),
        ("x" * 1200, "x" * 999 + "…"),
    ],
)
def test_names_are_made_readable_and_fit_a_frame(raw: str, clean: str) -> None:
    assert callgrind.clean_name(raw) == clean


def test_too_many_deep_stacks_lose_their_middles_first_keeping_every_self_cost() -> None:
    # 200 paths through a diamond-rich graph to 10 leaves: the middles go, the leaves stay
    stacks = {
        ("main", f"a{i % 20}", f"b{i % 7}", f"c{i}", f"leaf{i % 10}"): 10 + i for i in range(200)
    }
    kept = profiles.limit(stacks, 60)
    assert len(kept) <= 60 and profiles.OTHER not in {p[-1] for p in kept}
    assert profiles.self_costs(profiles.text(kept)) == profiles.self_costs(profiles.text(stacks))
    assert all(p[0] == "main" for p in kept)
    assert ("main", "a0", profiles.ELIDED, "leaf0") in kept  # depth 4 was enough
    assert profiles.limit(stacks, 500) == stacks


def test_the_lightest_stacks_fold_into_other_under_their_parent() -> None:
    stacks = {("m", f"f{i}"): 100 - i for i in range(50)} | {("m",): 7, ("n", "x", "y"): 1}
    kept = profiles.limit(stacks, 10)
    assert len(kept) <= 10 and sum(kept.values()) == sum(stacks.values())
    assert kept[("m", "f0")] == 100 and ("m", profiles.OTHER) in kept
    tiny = profiles.limit({(f"r{i}",): 1 for i in range(30)}, 3)
    assert tiny == {("r0",): 1, ("r1",): 1, (profiles.OTHER,): 28}


def test_a_profile_value_is_checked_against_the_contracts_limits() -> None:
    ok = profiles.field("main;f 3\nmain 1\n", metric="instructions")
    assert ok == {
        "kind": "instructions",
        "unit": "instructions",
        "format": "folded",
        "stacks": "main;f 3\nmain 1\n",
        "metric": "instructions",
    }
    assert profiles.problem({**ok, "kind": "wall"}) is not None
    assert profiles.problem({**ok, "stacks": "main;f three"}) is not None
    assert profiles.problem({**ok, "stacks": "main;;f 3"}) is not None
    assert profiles.problem({**ok, "extra": 1}) is not None
    with pytest.raises(ValueError, match="not a folded stack line"):
        profiles.field(";".join(["f"] * 300) + " 1", metric=None)


def test_bad_files_are_refused_with_their_line(tmp_path: Path) -> None:
    (tmp_path / "x").write_text("fn=main\n")
    with pytest.raises(callgrind.CallgrindError, match="no `events:`"):
        callgrind.read([tmp_path / "x"])
    with pytest.raises(callgrind.CallgrindError, match="no Ir event"):
        _graph("events: Dr\nfn=main\n1 2\n")
    with pytest.raises(callgrind.CallgrindError, match=r"\(7\) used before"):
        _graph("events: Ir\nfn=(7)\n1 2\n")
    with pytest.raises(callgrind.CallgrindError, match=":3: 'zz' is not a number"):
        _graph("events: Ir\nfn=main\n1 zz\n")


def test_a_document_carries_a_profile_and_refuses_a_bad_one() -> None:
    entry = {
        "benchmark": "encryption",
        "parameters": {"input": 10},
        "metrics": [document.metric("instructions", "instructions", "lower_is_better", value=4)],
        "profile": profiles.field("main;f 3\nmain 1\n", metric="instructions"),
    }
    doc = document.build(system="relay", results=[entry])
    assert doc["results"][0]["profile"]["stacks"] == "main;f 3\nmain 1\n"
    with pytest.raises(document.DocumentError, match=r"results\[0\]\.profile: unit"):
        document.build(
            system="relay", results=[{**entry, "profile": {**entry["profile"], "unit": "s"}}]
        )


def test_functions_without_symbols_are_named_by_object_and_offset() -> None:
    text = (
        "events: Ir\nob=(1) /usr/lib/libssl.so.3\nfn=(1) SSL_read\n1 5\n"
        "cfn=(2) 0x00000000000355a0\ncalls=1 0x355a0\n2 7\n"
        "cob=(2) /usr/lib/libcrypto.so.3\ncfn=(3) 0x0000000000001000\ncalls=1 0x1000\n3 4\n"
        "fn=(2)\n1 7\nob=(2)\nfn=(3)\n1 4\n"
    )
    g = _graph(text)
    assert dict(g.self_cost) == {
        "SSL_read": 5,
        "libssl.so.3+0x355a0": 7,
        "libcrypto.so.3+0x1000": 4,
    }
    assert ("SSL_read", "libcrypto.so.3+0x1000") in g.calls


def test_a_profile_is_cut_to_its_byte_budget_keeping_its_total() -> None:
    g = CallGraph("Ir")
    for i in range(300):
        g.self_cost[f"{'x' * 200}{i}"] = 1000 + i
        g.calls[("main", f"{'x' * 200}{i}")] = 1000 + i
    out = profiles.folded(g, max_bytes=10_000)
    assert len(out.encode()) <= 10_000
    assert sum(profiles.self_costs(out).values()) == g.total
    lines = out.splitlines()
    assert f"main;{'x' * 200}299 1299" in lines and f"main;{'x' * 200}0 1000" not in lines
    assert lines[0].startswith(f"main;{profiles.OTHER} ") and 10 < len(lines) < 60


def test_an_excluded_function_toggles_collection_off_inside_it(tmp_path: Path) -> None:
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        pytest.skip("valgrind is not installed")
    cmd = instrumented.wrap(["server", "--port", "0"], tmp_path / "cg", exclude=["on_sweep"])
    # --toggle-collect turns collection off at start unless --collect-atstart=yes comes after
    assert cmd[cmd.index("--toggle-collect=on_sweep") + 1] == "--collect-atstart=yes"
    assert cmd[-3:] == ["server", "--port", "0"] and (tmp_path / "cg").is_dir()
    assert not any("toggle" in a for a in instrumented.wrap(["s"], tmp_path / "cg"))
