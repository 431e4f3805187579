"""Call trees of folded stacks, pure: a profile's tree (inclusive value and self per node) and
the differential tree of two profiles (nodes of either side; a removed node has value 0).

A tree keeps at most about MAX_NODES nodes: past that, the lightest subtrees of a node are
folded into one `[other]` child of their parent, so every node's value still adds up.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from benchdash.profiles.folded import Stack

ROOT = "all"
OTHER = "[other]"
MAX_NODES = 20_000


class _Trie:
    """One node: its weights on each side (inclusive and self), its children by name."""

    __slots__ = ("base", "base_self", "children", "head", "head_self")

    def __init__(self) -> None:
        self.head = self.head_self = self.base = self.base_self = 0
        self.children: dict[str, _Trie] = {}


def _trie(head: Mapping[Stack, int], base: Mapping[Stack, int] | None = None) -> _Trie:
    root = _Trie()
    for stack, weight in head.items():
        node = root
        node.head += weight
        for frame in stack:
            node = node.children.setdefault(frame, _Trie())
            node.head += weight
        node.head_self += weight
    for stack, weight in (base or {}).items():
        node = root
        node.base += weight
        for frame in stack:
            node = node.children.setdefault(frame, _Trie())
            node.base += weight
        node.base_self += weight
    return root


def _cutoff(root: _Trie) -> int:
    """Subtrees of this weight or less fold into `[other]` (-1: the tree is small enough)."""
    weights: list[int] = []
    todo = [root]
    while todo:
        node = todo.pop()
        weights.append(max(node.head, node.base))
        todo.extend(node.children.values())
    if len(weights) <= MAX_NODES:
        return -1
    weights.sort(reverse=True)
    return weights[MAX_NODES]


def _emit(name: str, node: _Trie, cutoff: int, diff: bool) -> dict[str, Any]:
    """The node as the wire form (recursive on purpose: depth is at most 257)."""
    kept = [(n, c) for n, c in sorted(node.children.items()) if max(c.head, c.base) > cutoff]
    rest = [c for c in node.children.values() if max(c.head, c.base) <= cutoff]
    children = [_emit(n, c, cutoff, diff) for n, c in kept]
    if rest:
        other = _Trie()
        other.head = other.head_self = sum(c.head for c in rest)
        other.base = other.base_self = sum(c.base for c in rest)
        children.append(_emit(OTHER, other, cutoff, diff))
    if diff:
        return {
            "name": name,
            "value": node.head,
            "delta": node.head - node.base,
            "base_value": node.base,
            "children": children,
        }
    return {"name": name, "value": node.head, "self": node.head_self, "children": children}


def build(stacks: Mapping[Stack, int]) -> dict[str, Any]:
    """The tree of one profile: `{name, value (inclusive), self, children}`, root "all"."""
    root = _trie(stacks)
    return _emit(ROOT, root, _cutoff(root), diff=False)


def build_diff(base: Mapping[Stack, int], head: Mapping[Stack, int]) -> dict[str, Any]:
    """The differential tree: `{name, value (head), delta (head - base), base_value, children}`."""
    root = _trie(head, base)
    return _emit(ROOT, root, _cutoff(root), diff=True)
