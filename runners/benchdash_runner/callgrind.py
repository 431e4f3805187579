"""Read Callgrind output files (Valgrind's `callgrind.out.*`): per-function self costs and
caller → callee call costs of one event (`Ir`, instructions, by default).

The format (valgrind.org/docs/manual/cl-format.html) is parsed directly: a header
(`events:`, `positions:`), then per function `fn=` blocks of cost lines (positions, then one
column per event; positions may be relative, `+N`/`-N`/`*`, numbers decimal or `0x` hex). A
`calls=` line makes the next cost line the inclusive cost of a call to the current `cfn=`, not
the caller's own cost. Names may be compressed: `(id) name` defines an id, `(id)` alone reuses
it (ids are per file; `fn=` and `cfn=` share one space, `ob=` and `cob=` another). A function
without a symbol (`0x00000000000355a0`) is named by its object and address
(`libssl.so.3+0x355a0`). `jump=`/`jcnd=` lines and the file and description lines carry
nothing this needs and are skipped.

gprof2dot's CallgrindParser was considered: it builds gprof2dot's own graph (float ratios,
cycles merged into one node) for drawing, not the integer self and call costs needed here, so
this reader of the documented format is used instead.

Names are cleaned for display (`clean_name`): Callgrind's recursion marks (`f'2`), Rust's
hash suffixes (`::h0123456789abcdef`) and C++ parameter lists (`f(int, char const*)` → `f()`)
dropped; `;`, newlines and NUL, which folded stacks cannot hold, replaced; at most 1,000
characters. Names that clean to the same text merge (C++ overloads become one frame).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

MAX_NAME = 1000
_COMPRESSED = re.compile(r"^\((\d+)\)(?:\s(.*))?$")
_RUST_HASH = re.compile(r"::h[0-9a-f]{16}(?![0-9A-Za-z_])")
_RECURSION = re.compile(r"'\d+$")
_ADDRESS = re.compile(r"^0x[0-9a-fA-F]+$")
_KEPT_PARENS = ("(anonymous namespace)", "(below main)")


class CallgrindError(ValueError):
    """A file that is not Callgrind output (or lacks the asked event); names the line."""


@dataclass
class CallGraph:
    """One event's costs: `self_cost[f]` (f's own) and `calls[(caller, callee)]` (inclusive)."""

    event: str
    self_cost: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    calls: dict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))

    @property
    def total(self) -> int:
        """Every function's self cost summed: the program's cost of the event."""
        return sum(self.self_cost.values())


def clean_name(raw: str) -> str:
    """A function name fit for a folded-stack frame (see the module docstring)."""
    name = _drop_arguments(_RUST_HASH.sub("", _RECURSION.sub("", raw.strip())))
    name = name.replace(";", ",").replace("\n", " ").replace("\r", " ").replace("\0", "")
    if len(name) > MAX_NAME:
        name = name[: MAX_NAME - 1] + "…"
    return name or "[unknown]"


def _drop_arguments(name: str) -> str:
    """A C++ name without its parameter lists (`ns::f(int, char*) const` → `ns::f() const`);
    `(anonymous namespace)`, `(below main)`, `operator()` and what is inside <...> are kept."""
    if "(" not in name:
        return name
    out: list[str] = []
    i, angle = 0, 0
    while i < len(name):
        c = name[i]
        if name.startswith("operator", i):
            end = i + len("operator")
            op = re.match(r"\s*(\(\)|<<=|>>=|<=>|<<|>>|<=|>=|->\*?|[<>])", name[end:])
            step = end + (op.end() if op else 0)
            out.append(name[i:step])
            i = step
            continue
        if c == "<":
            angle += 1
        elif c == ">" and angle:
            angle -= 1
        elif c == "(" and not angle and not name.startswith(_KEPT_PARENS, i):
            depth, j = 0, i
            while j < len(name):
                depth += {"(": 1, ")": -1}.get(name[j], 0)
                if depth == 0:
                    break
                j += 1
            out.append("()")
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _number(text: str, where: str) -> int:
    try:
        return int(text, 16) if text[:2].lower() == "0x" else int(text)
    except ValueError:
        raise CallgrindError(f"{where}: {text!r} is not a number") from None


def read(paths: Iterable[Path], *, event: str = "Ir") -> CallGraph:
    """The costs of `event` in one or more Callgrind files (threads, parts, dumps), summed."""
    graph = CallGraph(event)
    for path in paths:
        parse_text(path.read_text(errors="replace"), graph, where=str(path))
    return graph


def parse_text(text: str, graph: CallGraph, *, where: str = "callgrind") -> CallGraph:
    """Add the costs of one file's text to `graph` (whose `event` says which column)."""
    names: dict[str, str] = {}
    objects: dict[str, str] = {}
    positions, column = 1, -1
    fn, cfn, in_call = "[unknown]", "[unknown]", False
    ob, cob = "", ""

    def name_of(value: str, space: dict[str, str], obj: str = "") -> str:
        found = _COMPRESSED.match(value.strip())
        key, text = found.groups() if found else (None, value)
        if text is not None:
            text = clean_name(text)
            if obj and _ADDRESS.match(text):  # no symbol: the object and offset
                text = f"{obj.rsplit('/', 1)[-1]}+{int(text, 16):#x}"
            if key is None:
                return text
            space[key] = text
        if key not in space:
            raise CallgrindError(f"{where}: name ({key}) used before it is defined")
        return space[key]

    for no, line in enumerate(text.splitlines(), 1):
        if not line or line[0] == "#":
            continue
        if line[0].isdigit() or line[0] in "+-*":
            if column < 0:
                raise CallgrindError(f"{where}:{no}: a cost line before the `events:` line")
            values = line.split()[positions:]
            cost = _number(values[column], f"{where}:{no}") if column < len(values) else 0
            if in_call:
                graph.calls[(fn, cfn)] += cost
                in_call = False
            else:
                graph.self_cost[fn] += cost
            continue
        key, sep, value = line.partition("=")
        if sep and key == "fn":
            fn, in_call = name_of(value, names, ob), False
        elif sep and key == "cfn":
            cfn, cob = name_of(value, names, cob or ob), ""
        elif sep and key in ("ob", "cob"):
            obj = name_of(value, objects)
            ob, cob = (obj, "") if key == "ob" else (ob, obj)
        elif sep and key == "calls":
            in_call = True
        elif line.startswith("events:"):
            events = line.split(":", 1)[1].split()
            if graph.event not in events:
                raise CallgrindError(f"{where}: no {graph.event} event (events: {events})")
            column = events.index(graph.event)
        elif line.startswith("positions:"):
            positions = len(line.split(":", 1)[1].split())
    if column < 0:
        raise CallgrindError(f"{where}: no `events:` line (not Callgrind output?)")
    return graph


def totals(paths: Iterable[Path]) -> dict[str, int]:
    """Every event's total over the files (their `totals:` lines, else `summary:`), summed."""
    found: dict[str, int] = defaultdict(int)
    for path in paths:
        events: list[str] = []
        lines = path.read_text(errors="replace").splitlines()
        ends = [line for line in lines if line.startswith("totals:")]
        for line in lines:
            if line.startswith("events:"):
                events = line.split(":", 1)[1].split()
        for line in ends or [line for line in lines if line.startswith("summary:")]:
            for name, value in zip(events, line.split(":", 1)[1].split(), strict=False):
                found[name] += _number(value, str(path))
    return dict(found)


def estimated_cycles(costs: dict[str, int]) -> int | None:
    """Callgrind's cycle estimate from cache-simulation totals (`--cache-sim=yes`), as
    callgrind_annotate and Gungraun compute it: L1 hits + 5 x LL hits + 35 x RAM hits."""
    needed = ("Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw")
    if any(e not in costs for e in needed):
        return None
    l1_miss = costs["I1mr"] + costs["D1mr"] + costs["D1mw"]
    ram = costs["ILmr"] + costs["DLmr"] + costs["DLmw"]
    l1_hits = costs["Ir"] + costs["Dr"] + costs["Dw"] - l1_miss
    return l1_hits + 5 * (l1_miss - ram) + 35 * ram
