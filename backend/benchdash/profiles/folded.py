"""Folded stacks (Brendan Gregg's format), pure: parse with the contract's limits, render,
and the per-function costs both the API and the frontend derive from them.

One line per stack: frames root-first separated by `;`, one space, a non-negative integer
weight. A frame may contain spaces (the weight follows the LAST space), never `;`, a line
break or NUL. Empty lines are ignored; a stack written twice adds up (as flamegraph.pl does).
"""

from __future__ import annotations

from collections.abc import Mapping

Stack = tuple[str, ...]
Stacks = dict[Stack, int]

MAX_BYTES = 4 * 1024 * 1024
MAX_LINES = 50_000
MAX_FRAMES = 256
MAX_FRAME_CHARS = 1000
MAX_WEIGHT = 2**63 - 1


class FoldedError(ValueError):
    """Folded text the contract does not accept; the message names the line and the rule."""


def _check_size(text: str) -> None:
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:
        raise FoldedError("stacks must be valid Unicode (no lone surrogates)") from None
    if size > MAX_BYTES:
        raise FoldedError(f"stacks hold {size:,} bytes: at most {MAX_BYTES:,} (4 MiB)")


def _frames(stack: str, n: int) -> Stack:
    frames = stack.split(";")
    if len(frames) > MAX_FRAMES:
        raise FoldedError(f"line {n}: {len(frames)} frames, at most {MAX_FRAMES} per stack")
    for frame in frames:
        if not frame:
            raise FoldedError(f"line {n}: an empty frame name (frames are 1..1000 characters)")
        if len(frame) > MAX_FRAME_CHARS:
            raise FoldedError(
                f"line {n}: a frame name of {len(frame)} characters, at most {MAX_FRAME_CHARS}"
            )
        if "\x00" in frame or "\r" in frame:
            raise FoldedError(f"line {n}: a frame name contains NUL or a carriage return")
    return tuple(frames)


def _weight(text: str, n: int) -> int:
    if not (text.isascii() and text.isdigit()):
        raise FoldedError(
            f"line {n}: the weight {text[:40]!r} is not a non-negative integer "
            "(a line is the stack, one space, then the weight)"
        )
    weight = int(text)
    if weight > MAX_WEIGHT:
        raise FoldedError(f"line {n}: the weight {text[:40]} is past 2^63-1")
    return weight


def parse(text: str) -> Stacks:
    """Parse folded text into {stack: weight}, or raise FoldedError naming the first problem."""
    _check_size(text)
    lines = text.split("\n")
    count = sum(1 for line in lines if line.strip())
    if count > MAX_LINES:
        raise FoldedError(f"{count:,} stacks: at most {MAX_LINES:,} lines")
    stacks: Stacks = {}
    total = 0
    for n, line in enumerate(lines, start=1):
        raw = line[:-1] if line.endswith("\r") else line
        if not raw.strip():
            continue
        stack, space, weight_text = raw.rstrip(" \t").rpartition(" ")
        if not space:
            raise FoldedError(f"line {n}: no weight (a stack, one space, then an integer weight)")
        key, weight = _frames(stack, n), _weight(weight_text, n)
        stacks[key] = stacks.get(key, 0) + weight
        total += weight
    if total > MAX_WEIGHT:
        raise FoldedError("the weights add up past 2^63-1")
    return stacks


def render(stacks: Mapping[Stack, int]) -> str:
    """Canonical folded text: one line per stack, sorted; `parse(render(x)) == x`."""
    return "".join(f"{';'.join(stack)} {weight}\n" for stack, weight in sorted(stacks.items()))


def total(stacks: Mapping[Stack, int]) -> int:
    """The sum of all weights."""
    return sum(stacks.values())


def self_costs(stacks: Mapping[Stack, int]) -> dict[str, int]:
    """self(f): the weights of the stacks whose leaf frame is f."""
    out: dict[str, int] = {}
    for stack, weight in stacks.items():
        out[stack[-1]] = out.get(stack[-1], 0) + weight
    return out


def inclusive_costs(stacks: Mapping[Stack, int]) -> dict[str, int]:
    """inclusive(f): the weights of the stacks f appears in (once per stack, recursion too)."""
    out: dict[str, int] = {}
    for stack, weight in stacks.items():
        for frame in set(stack):
            out[frame] = out.get(frame, 0) + weight
    return out
