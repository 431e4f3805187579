"""Profiles for a result entry (`profile`, runners/CONTRACT.md): Callgrind files → folded stacks.

Callgrind records, per function, its own (self) cost and the inclusive cost of each call it
makes to each callee; it keeps no whole stacks. `fold` rebuilds stacks from the roots (the
given root functions, e.g. the bench function or `main`, else every function nobody calls):
a function's inclusive cost reaching it along one stack is split between its self cost and
its callees in proportion to the recorded costs (self, and each caller → callee call cost),
recursively. A call back into a function already on the stack is cut (recursion and cycles),
stacks stop at 128 frames, and shares under a millionth of the total are not followed. Then
every function's leaf stacks are scaled so that they sum to exactly its self cost in the file
(integers, largest remainders); a function no stack reached is its own one-frame stack. So
self costs are exact, and total = the file's total; how a callee's cost divides among its
callers' stacks is an approximation when it is called from several places (the file does not
say which of its callers' calls were the expensive ones). `limit` then keeps at most 5,000
stacks: deep stacks lose their middle frames first (`root;a;[…];leaf`, as shallow as needed,
which keeps every leaf and so every self cost), and only then are the lightest stacks folded
into an `[other]` leaf under their parent.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from benchdash_runner.callgrind import CallGraph, read

Stacks = dict[tuple[str, ...], int]
MAX_DEPTH, MAX_STACKS, MAX_EXPANSIONS = 128, 5000, 200_000
OTHER, ELIDED = "[other]", "[…]"
KINDS = {"instructions": ("instructions",), "cpu": ("nanoseconds", "samples")}
MAX_STACKS_BYTES, MAX_LINES, MAX_FRAMES = 4 << 20, 50_000, 256
MAX_BYTES = 1 << 20  # per profile, so that a few fit in one document


def fold(graph: CallGraph, *, roots: Sequence[str] = (), max_depth: int = MAX_DEPTH) -> Stacks:
    """Whole stacks (root first) with integer weights from a call graph (module docstring)."""
    out: dict[str, list[tuple[str, int]]] = defaultdict(list)
    called: set[str] = set()
    for (caller, callee), cost in sorted(graph.calls.items()):
        if cost > 0:
            out[caller].append((callee, cost))
            if callee != caller:
                called.add(callee)
    funcs = set(graph.self_cost) | set(out)
    through = {f: graph.self_cost.get(f, 0) + sum(c for _, c in out[f]) for f in funcs}
    start = [r for r in roots if through.get(r, 0) > 0]
    start = start or sorted(f for f in funcs if f not in called and through[f] > 0)
    cutoff = graph.total / 1e6
    raw: dict[tuple[str, ...], float] = defaultdict(float)
    todo: list[tuple[tuple[str, ...], float]] = [((r,), float(through[r])) for r in start]
    budget = MAX_EXPANSIONS
    while todo and budget > 0:
        path, weight = todo.pop()
        budget -= 1
        f = path[-1]
        own = graph.self_cost.get(f, 0)
        if own > 0:
            raw[path] += weight * own / through[f]
        if len(path) >= max_depth:
            continue
        for callee, cost in out[f]:
            share = weight * cost / through[f]
            if callee not in path and share >= cutoff:
                todo.append(((*path, callee), share))
    return _exact_self(graph, raw)


def _exact_self(graph: CallGraph, raw: dict[tuple[str, ...], float]) -> Stacks:
    """Scale each function's leaf stacks to its self cost, as integers summing exactly to it."""
    by_leaf: dict[str, list[tuple[tuple[str, ...], float]]] = defaultdict(list)
    for path, weight in raw.items():
        by_leaf[path[-1]].append((path, weight))
    stacks: Stacks = {}
    for f, own in graph.self_cost.items():
        leaves = by_leaf.get(f)
        emitted = sum(w for _, w in leaves) if leaves else 0.0
        if own <= 0:
            continue
        if not leaves or emitted <= 0:
            stacks[(f,)] = stacks.get((f,), 0) + own
            continue
        scaled = [(p, w * own / emitted) for p, w in leaves]
        whole = [(p, math.floor(x), x - math.floor(x)) for p, x in scaled]
        short = own - sum(n for _, n, _ in whole)
        ranked = sorted(range(len(whole)), key=lambda i: (-whole[i][2], whole[i][0]))
        bump = set(ranked[:short])
        for i, (p, n, _) in enumerate(whole):
            if n + (i in bump) > 0:
                stacks[p] = stacks.get(p, 0) + n + (i in bump)
    return stacks


def elide(stacks: Stacks, depth: int) -> Stacks:
    """Stacks longer than `depth` frames keep their first `depth - 2` and their leaf, with
    `[…]` between (`depth` ≥ 3): leaves, and so self costs, are untouched."""
    out: Stacks = {}
    for path, weight in stacks.items():
        if len(path) > depth:
            path = (*path[: depth - 2], ELIDED, path[-1])
        out[path] = out.get(path, 0) + weight
    return out


def limit(stacks: Stacks, max_stacks: int = MAX_STACKS) -> Stacks:
    """At most `max_stacks` stacks: first the middles of deep stacks elided (`elide`, as
    shallow as needed down to 3 frames), then the lightest folded into `[other]` under their
    parent."""
    full, depth = stacks, max((len(p) for p in stacks), default=0)
    while len(stacks) > max_stacks and depth > 3:
        depth = max(3, depth - max(1, depth // 8))
        stacks = elide(full, depth)
    while len(stacks) > max_stacks:
        ranked = sorted(stacks.items(), key=lambda kv: (-kv[1], kv[0]))
        keep = max_stacks
        while True:
            merged = dict(ranked[:keep])
            for path, weight in ranked[keep:]:
                other = (*path[:-1], OTHER) if path[-1] != OTHER else (*path[:-2], OTHER)
                merged[other] = merged.get(other, 0) + weight
            if len(merged) <= max_stacks or keep == 0:
                break
            keep = max(0, keep - (len(merged) - max_stacks))
        if merged == stacks:
            break  # cannot shrink further (only one-frame stacks left)
        stacks = merged
    return stacks


def text(stacks: Stacks) -> str:
    """Folded-stack text: one `a;b;c weight` line per stack, heaviest first."""
    ranked = sorted(stacks.items(), key=lambda kv: (-kv[1], kv[0]))
    return "".join(f"{';'.join(path)} {weight}\n" for path, weight in ranked)


def self_costs(folded: str) -> dict[str, int]:
    """self(f) of folded text: the weights of the stacks whose leaf is f, summed."""
    found: dict[str, int] = defaultdict(int)
    for line in folded.splitlines():
        if line.strip():
            path, _, weight = line.rpartition(" ")
            found[path.rsplit(";", 1)[-1]] += int(weight)
    return dict(found)


def from_callgrind(
    paths: Iterable[Path],
    *,
    roots: Sequence[str] = (),
    event: str = "Ir",
    max_stacks: int = MAX_STACKS,
) -> str:
    """Folded stacks of Callgrind files (summed), at most `max_stacks` lines (and 1 MiB)."""
    return folded(read(paths, event=event), roots=roots, max_stacks=max_stacks)


def folded(
    graph: CallGraph,
    *,
    roots: Sequence[str] = (),
    max_stacks: int = MAX_STACKS,
    max_bytes: int = MAX_BYTES,
) -> str:
    """Folded-stack text of a call graph: at most `max_stacks` lines and `max_bytes` bytes
    (fewer stacks kept until it fits; a document holds 5 MiB in all)."""
    stacks = fold(graph, roots=roots)
    while True:
        found = text(limit(stacks, max_stacks))
        size = len(found.encode())
        if size <= max_bytes or max_stacks <= 1:
            return found
        max_stacks = max(1, min(max_stacks - 1, int(max_stacks * max_bytes / size * 0.95)))


def functions(graph: CallGraph) -> set[str]:
    """Every function named in the graph (with costs or calls)."""
    return set(graph.self_cost) | {f for pair in graph.calls for f in pair}


def field(
    stacks: str, *, kind: str = "instructions", unit: str = "instructions", metric: str | None
) -> dict[str, Any]:
    """A result entry's `profile` value; ValueError when the server would refuse it."""
    value: dict[str, Any] = {"kind": kind, "unit": unit, "format": "folded", "stacks": stacks}
    if metric is not None:
        value["metric"] = metric
    bad = problem(value)
    if bad:
        raise ValueError(bad)
    return value


def problem(value: Any) -> str | None:
    """Why the server would refuse this `profile` value (the contract's limits), or None."""
    if not isinstance(value, dict):
        return "must be an object"
    unknown = set(value) - {"kind", "unit", "metric", "format", "stacks"}
    if unknown:
        return f"unknown fields {sorted(unknown)}"
    if value.get("kind") not in KINDS:
        return f"kind {value.get('kind')!r}: use one of {', '.join(KINDS)}"
    if value.get("unit") not in {u for units in KINDS.values() for u in units}:
        return f"unit {value.get('unit')!r}: use instructions, nanoseconds or samples"
    if value.get("format") != "folded":
        return "format must be 'folded'"
    stacks = value.get("stacks")
    if not isinstance(stacks, str) or len(stacks.encode()) > MAX_STACKS_BYTES:
        return "stacks must be folded-stack text of at most 4 MiB"
    lines = [line for line in stacks.splitlines() if line.strip()]
    if len(lines) > MAX_LINES:
        return f"{len(lines)} stacks, more than {MAX_LINES}"
    for line in lines:
        path, _, weight = line.rpartition(" ")
        frames = path.split(";")
        if not weight.isdigit() or not path or len(frames) > MAX_FRAMES:
            return f"not a folded stack line: {line[:120]!r}"
        if any(not 1 <= len(f) <= 1000 or "\0" in f for f in frames):
            return f"a frame name is empty, over 1000 characters or holds NUL: {line[:120]!r}"
    return None
