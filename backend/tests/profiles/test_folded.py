"""Folded stacks, their per-function costs, trees and diffs, by property: parse inverts
render, self costs sum to the total, inclusive is at least self, a profile diffed with
itself is all zero, and every tree node's value is its self plus its children's."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchdash.profiles import diff, folded, tree

FRAME = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters=";\n\r\x00"),
    min_size=1,
    max_size=12,
)
SMALL_FRAME = st.sampled_from(["main", "f", "g", "h i", "h", "[other]", "é::λ"])
STACK = st.lists(st.one_of(SMALL_FRAME, FRAME), min_size=1, max_size=8).map(tuple)
STACKS = st.dictionaries(STACK, st.integers(0, 10**12), max_size=30)


@given(STACKS)
def test_parse_inverts_render(stacks: folded.Stacks) -> None:
    assert folded.parse(folded.render(stacks)) == stacks


@given(STACKS)
def test_self_costs_sum_to_the_total_and_inclusive_is_at_least_self(
    stacks: folded.Stacks,
) -> None:
    own, incl = folded.self_costs(stacks), folded.inclusive_costs(stacks)
    assert sum(own.values()) == folded.total(stacks)
    assert all(incl[name] >= cost for name, cost in own.items())
    assert all(cost <= folded.total(stacks) for cost in incl.values())


@given(STACKS)
def test_a_profile_diffed_with_itself_is_all_zero(stacks: folded.Stacks) -> None:
    rows = diff.diff_functions(stacks, stacks, limit=10**6)
    assert all(r["delta_self"] == 0 and r["pct_of_base_total"] == 0 for r in rows)
    assert {r["name"] for r in rows} == set(folded.self_costs(stacks))
    assert diff.elsewhere_pct(folded.total(stacks), folded.total(stacks), rows) == 0

    def zero(node: dict[str, Any]) -> None:
        assert node["delta"] == 0 and node["value"] == node["base_value"]
        for child in node["children"]:
            zero(child)

    zero(tree.build_diff(stacks, stacks))
    assert diff.root_cause(stacks, stacks)["functions"] == []


def _sums(node: dict[str, Any]) -> None:
    assert node["value"] == node["self"] + sum(c["value"] for c in node["children"])
    for child in node["children"]:
        _sums(child)


@given(STACKS)
def test_a_trees_values_add_up(stacks: folded.Stacks) -> None:
    root = tree.build(stacks)
    assert root["name"] == "all" and root["value"] == folded.total(stacks)
    _sums(root)


@given(STACKS, STACKS)
def test_a_diff_tree_holds_both_sides(base: folded.Stacks, head: folded.Stacks) -> None:
    root = tree.build_diff(base, head)
    assert (root["base_value"], root["value"]) == (folded.total(base), folded.total(head))
    assert root["delta"] == root["value"] - root["base_value"]
    rows = diff.diff_functions(base, head, limit=10**6)
    change = diff.pct_of(folded.total(head) - folded.total(base), folded.total(base))
    assert abs(sum(r["pct_of_base_total"] for r in rows) - change) < 1e-6 * max(1, abs(change))
    assert [r["delta_self"] for r in rows] == sorted((r["delta_self"] for r in rows), reverse=True)


@settings(max_examples=30)
@given(STACKS)
def test_the_root_causes_summary_accounts_for_the_whole_change(base: folded.Stacks) -> None:
    head = {**base, ("main", "grown"): base.get(("main", "grown"), 0) + 10}
    cause = diff.root_cause(base, head)
    named_pct = sum(f["pct_of_base_total"] for f in cause["functions"][:1])
    change = diff.pct_of(10, folded.total(base))
    assert cause["functions"][0]["name"] == "grown"
    assert abs(named_pct + cause["elsewhere_pct"] - change) < 1e-9
    assert cause["summary"].endswith(" elsewhere") and " in grown" in cause["summary"]


def test_the_root_cause_lists_no_function_that_moved_by_sampling_noise() -> None:
    base = {("main", "hot"): 5000, ("main", "a"): 3000, ("main", "b"): 2000}
    head = {("main", "hot"): 6200, ("main", "a"): 3020, ("main", "b"): 2060}  # +12 %, +0.2, +0.6
    sampled = diff.root_cause(base, head, min_pct=diff.SAMPLED_MIN_PCT)
    assert [f["name"] for f in sampled["functions"]] == ["hot", "b"]
    assert [f["name"] for f in diff.root_cause(base, head)["functions"]] == ["hot", "b", "a"]
    tiny = {("main", "hot"): 5001, ("main", "a"): 3000, ("main", "b"): 2000}
    assert [f["name"] for f in diff.root_cause(base, tiny, min_pct=0.5)["functions"]] == ["hot"]


def test_lines_crlf_blank_lines_duplicates_and_spaces_in_frames() -> None:
    text = "main;operator() const 5\r\n\n  \nmain;operator() const 7\nmain 0\n"
    assert folded.parse(text) == {("main", "operator() const"): 12, ("main",): 0}


def test_a_large_tree_folds_its_lightest_subtrees_into_other() -> None:
    stacks = {("main", f"f{i}", f"g{i}"): i for i in range(1, 15_001)}
    root = tree.build(stacks)
    _sums(root)
    (main,) = root["children"]
    other = main["children"][-1]
    assert other["name"] == tree.OTHER and other["children"] == []
    assert len(main["children"]) < 10_001
    kept = {c["name"] for c in main["children"][:-1]}
    assert "f15000" in kept and "f1" not in kept


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("é" * (2 * 1024 * 1024 + 1), "stacks hold 4,194,306 bytes: at most 4,194,304 (4 MiB)"),
        ("a\ud800 1\n", "valid Unicode"),
        ("a\rb 1\n", "line 1: a frame name contains NUL or a carriage return"),
        ("a 1\nb\t2\n", "line 2: no weight"),
        ("a ٣\n", "line 1: the weight '٣' is not a non-negative integer"),
    ],
)
def test_refusals_name_the_rule(text: str, message: str) -> None:
    with pytest.raises(folded.FoldedError) as caught:
        folded.parse(text)
    assert message in str(caught.value)
