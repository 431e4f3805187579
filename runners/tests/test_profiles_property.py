"""Property: the folded stacks of any Callgrind file carry exactly the file's self costs.

Files are generated in the documented format with what Callgrind writes: compressed and plain
names, Rust hash suffixes, relative/`*`/hex positions, several events in any order, omitted
trailing columns, and call graphs with shared callees, recursion and cycles, whose call costs
need not even be consistent with the callees' own costs.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from benchdash_runner import callgrind, profiles
from benchdash_runner.callgrind import CallGraph

EVENTS = ("Ir", "Dr", "Dw")


@dataclass
class Generated:
    text: str
    self_cost: dict[str, int]  # Ir per function, by display name


@st.composite
def callgrind_files(draw: st.DrawFn) -> Generated:
    n = draw(st.integers(1, 12))
    names = [f"app::m{i}::f{i}::h{draw(st.integers(0, 2**64 - 1)):016x}" for i in range(n)]
    events = draw(st.permutations(EVENTS))
    ir = events.index("Ir")
    two_positions = draw(st.booleans())
    lines = ["# callgrind format", "version: 1"]
    lines.append(f"positions: {'instr line' if two_positions else 'line'}")
    lines += [f"events: {' '.join(events)}", ""]
    defined: set[int] = set()
    expected: dict[str, int] = defaultdict(int)

    def ref(i: int) -> str:
        compress = draw(st.booleans())
        if not compress:
            return names[i]
        if i in defined:
            return f"({i + 1})"
        defined.add(i)
        return f"({i + 1}) {names[i]}"

    def position() -> str:
        one = draw(st.sampled_from(["*", "+3", "-1", "42", "0x1f"]))
        return f"{one} {draw(st.sampled_from(['*', '+1', '7']))}" if two_positions else one

    def costs(ir_cost: int) -> str:
        values = [draw(st.integers(0, 10**6)) for _ in events]
        values[ir] = ir_cost
        if ir_cost == 0 and ir == len(values) - 1 and draw(st.booleans()):
            values.pop()  # trailing zero columns may be left out
        return " ".join(hex(v) if draw(st.booleans()) else str(v) for v in values)

    blocks = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3 * n))
    for f in blocks:
        lines.append(f"fn={ref(f)}")
        for _ in range(draw(st.integers(0, 3))):
            own = draw(st.integers(0, 10**7))
            expected[callgrind.clean_name(names[f])] += own
            lines.append(f"{position()} {costs(own)}")
            if draw(st.booleans()):
                callee = draw(st.integers(0, n - 1))
                lines += [f"cfn={ref(callee)}", f"calls={draw(st.integers(1, 9))} {position()}"]
                lines.append(f"{position()} {costs(draw(st.integers(0, 10**8)))}")
    return Generated("\n".join(lines) + "\n", {f: c for f, c in expected.items() if c > 0})


@settings(max_examples=300, deadline=None)
@given(callgrind_files())
def test_folded_self_costs_equal_the_files_self_costs(gen: Generated) -> None:
    graph = callgrind.parse_text(gen.text, CallGraph("Ir"))
    folded = profiles.text(profiles.fold(graph))
    assert profiles.self_costs(folded) == gen.self_cost
    assert profiles.problem(profiles.field(folded, metric="instructions")) is None
    for line in folded.splitlines():
        frames = line.rpartition(" ")[0].split(";")
        assert len(frames) == len(set(frames))  # cycles are cut: no function twice on a stack


@settings(max_examples=200, deadline=None)
@given(callgrind_files(), st.integers(1, 20))
def test_limiting_keeps_the_total_and_the_heaviest_stacks(gen: Generated, cap: int) -> None:
    stacks = profiles.fold(callgrind.parse_text(gen.text, CallGraph("Ir")))
    kept = profiles.limit(stacks, cap)
    assert len(kept) <= cap or all(len(p) == 1 for p in kept)
    assert sum(kept.values()) == sum(stacks.values()) == sum(gen.self_cost.values())
    heaviest = max(stacks.items(), key=lambda kv: (kv[1], kv[0]), default=None)
    if heaviest and len(kept) > 1:
        assert max(kept.values()) >= heaviest[1]
