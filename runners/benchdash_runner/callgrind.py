"""Read Callgrind output files (Valgrind's `callgrind.out.*`): per-function self costs and
caller → callee call costs of one event (`Ir`, instructions, by default).

The format (valgrind.org/docs/manual/cl-format.html) is parsed directly: a header
(`events:`, `positions:`), then per function `fn=` blocks of cost lines (positions, then one
column per event; positions may be relative, `+N`/`-N`/`*`, numbers decimal or `0x` hex). A
`calls=` line makes the next cost line the inclusive cost of a call to the current `cfn=`, not
the caller's own cost. Names may be compressed: `(id) name` defines an id, `(id)` alone reuses
it (ids are per file; `fn=` and `cfn=` share one space). `jump=`/`jcnd=` lines and the file,
object and description lines carry nothing this needs and are skipped.

gprof2dot's CallgrindParser was considered: it builds gprof2dot's own graph (float ratios,
cycles merged into one node) for drawing, not the integer self and call costs needed here, so
this reader of the documented format is used instead.

Names are cleaned for display (`clean_name`): Callgrind's recursion marks (`f'2`) and Rust's
hash suffixes (`::h0123456789abcdef`) dropped; `;`, newlines and NUL, which folded stacks
cannot hold, replaced; at most 1,000 characters. Names that clean to the same text merge.
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
    name = _RUST_HASH.sub("", _RECURSION.sub("", raw.strip()))
    name = name.replace(";", ",").replace("\n", " ").replace("\r", " ").replace("\0", "")
    if len(name) > MAX_NAME:
        name = name[: MAX_NAME - 1] + "…"
    return name or "[unknown]"


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
    positions, column = 1, -1
    fn, cfn, in_call = "[unknown]", "[unknown]", False

    def name_of(value: str) -> str:
        found = _COMPRESSED.match(value.strip())
        if not found:
            return clean_name(value)
        key, text = found.groups()
        if text is not None:
            names[key] = clean_name(text)
        if key not in names:
            raise CallgrindError(f"{where}: name ({key}) used before it is defined")
        return names[key]

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
            fn, in_call = name_of(value), False
        elif sep and key == "cfn":
            cfn = name_of(value)
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
