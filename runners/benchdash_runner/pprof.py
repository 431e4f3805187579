"""Go CPU profiles as the `profile` of a result entry (folded stacks, runners/CONTRACT.md).

A Go bench harness writes a CPU profile (`-cpuprofile`, pprof protobuf); the small Go command
runners/tools/pprof2folded (github.com/google/pprof/profile) turns it into folded stacks:
frames root-first, function names only, weight = CPU time in nanoseconds. This module builds
that command, runs it and keeps the result compact.

The fold-and-cap helpers (`parse_folded`, `render_folded`, `cap_stacks`) are not Go-specific:
any producer of folded stacks can keep its profiles within the contract's limits with them.
`cap_stacks` folds the lightest subtrees into an `[other]` leaf under their parent
(`a;b;c 5` becomes `a;b;[other] 5` when `a;b;c` weighs less than the threshold that fits), so
the total and the inclusive cost of every frame kept are exact.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from benchdash_runner.driving import Driver

Stacks = dict[tuple[str, ...], int]

MAX_STACKS = 5000  # the contract's "at most ~5,000 stacks" for a runner's profile
MAX_DEPTH = 256  # frames per stack the server accepts
MAX_WEIGHT = 2**63 - 1
OTHER = "[other]"
TRUNCATED = "[truncated]"  # root frame of a stack cut to MAX_DEPTH (its leaf end is kept)
TOOL = Path("runners/tools/pprof2folded")  # from the repository root
# What a run's profiles may take of the document (the server takes 5 MiB, samples included).
PROFILES_BUDGET = 2 << 20


def parse_folded(text: str) -> Stacks:
    """Folded text as {frames: weight}; repeated stacks add up, empty lines are skipped."""
    stacks: Stacks = {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        stack, _, weight = line.rpartition(" ")
        if not stack or not weight.isdigit() or int(weight) > MAX_WEIGHT:
            raise ValueError(f"line {n}: not 'frame;frame weight': {line[:200]!r}")
        frames = tuple(stack.split(";"))
        if not all(frames):
            raise ValueError(f"line {n}: empty frame name in {stack[:200]!r}")
        stacks[frames] = stacks.get(frames, 0) + int(weight)
    return stacks


def render_folded(stacks: Mapping[tuple[str, ...], int]) -> str:
    """The stacks as folded text, one line each, sorted by stack."""
    return "".join(f"{';'.join(frames)} {w}\n" for frames, w in sorted(stacks.items()))


class _Node:
    """A prefix of stacks: its inclusive weight, the weight of stacks ending here, children."""

    __slots__ = ("children", "inc", "self_w")

    def __init__(self) -> None:
        self.inc, self.self_w = 0, 0
        self.children: dict[str, _Node] = {}


def _trie(stacks: Stacks) -> _Node:
    root = _Node()
    for frames, w in stacks.items():
        node = root
        node.inc += w
        for name in frames:
            node = node.children.setdefault(name, _Node())
            node.inc += w
        node.self_w += w
    return root


def _pruned(root: _Node, threshold: int) -> Stacks:
    """Every subtree lighter than `threshold` folded into an `[other]` leaf of its parent."""
    out: Stacks = {}
    todo: list[tuple[tuple[str, ...], _Node]] = [((), root)]
    while todo:
        path, node = todo.pop()
        if node.self_w:
            out[path] = out.get(path, 0) + node.self_w
        for name, child in node.children.items():
            if child.inc >= threshold:
                todo.append(((*path, name), child))
            else:
                key = (*path, OTHER)
                out[key] = out.get(key, 0) + child.inc
    return out


def _fits(stacks: Stacks, max_stacks: int, max_bytes: int | None) -> bool:
    if len(stacks) > max_stacks:
        return False
    return max_bytes is None or len(render_folded(stacks).encode()) <= max_bytes


def cap_stacks(
    stacks: Mapping[tuple[str, ...], int],
    *,
    max_stacks: int = MAX_STACKS,
    max_depth: int = MAX_DEPTH,
    max_bytes: int | None = None,
) -> Stacks:
    """At most `max_stacks` stacks of at most `max_depth` frames (and, if given, at most
    `max_bytes` of folded text); zero weights dropped. Subtrees lighter than the smallest
    threshold that fits are folded into an `[other]` leaf under their parent, so the total
    and the inclusive weight of every frame kept are exact."""
    if max_stacks < 1 or max_depth < 2:
        raise ValueError("max_stacks must be >= 1 and max_depth >= 2")
    out: Stacks = {}
    for frames, w in stacks.items():
        if w <= 0:
            continue
        if len(frames) > max_depth:
            frames = (TRUNCATED, *frames[len(frames) - max_depth + 1 :])
        out[frames] = out.get(frames, 0) + w
    if _fits(out, max_stacks, max_bytes):
        return out
    root = _trie(out)
    weights, todo = set[int](), [root]
    while todo:
        node = todo.pop()
        weights.update(c.inc for c in node.children.values())
        todo.extend(node.children.values())
    # Folding more never adds stacks: bisect the smallest threshold that fits.
    candidates = sorted(w + 1 for w in weights)
    lo, hi = 0, len(candidates) - 1  # the last folds everything into one `[other]`
    while lo < hi:
        mid = (lo + hi) // 2
        if _fits(_pruned(root, candidates[mid]), max_stacks, max_bytes):
            hi = mid
        else:
            lo = mid + 1
    for threshold in candidates[lo:]:  # byte sizes are only nearly monotone: step on if need be
        pruned = _pruned(root, threshold)
        if _fits(pruned, max_stacks, max_bytes):
            return pruned
    raise ValueError(f"no folding fits in {max_bytes} bytes")


def profile_field(
    stacks: Mapping[tuple[str, ...], int], *, kind: str, unit: str, metric: str | None = None
) -> dict[str, Any]:
    """A result entry's `profile` (contract: kind, unit, optional metric, format, stacks)."""
    field: dict[str, Any] = {"kind": kind, "unit": unit}
    if metric is not None:
        field["metric"] = metric
    field.update(format="folded", stacks=render_folded(stacks))
    return field


# -- Go CPU profiles -----------------------------------------------------------------------


def byte_budget(profiles: int) -> int:
    """Bytes of folded text each of a run's `profiles` profiles may take (64 KiB at least)."""
    return max(64 << 10, PROFILES_BUDGET // max(profiles, 1))


def build_tool(drv: Driver) -> Path:
    """Build pprof2folded into the driver's output folder (exit 3 if the build fails)."""
    binary = drv.out / "pprof2folded"
    drv.build(["go", "build", "-trimpath", "-o", str(binary), "."], cwd=drv.root / TOOL)
    return binary


def go_cpu_profile(
    drv: Driver,
    tool: Path,
    pprof_file: Path,
    *,
    metric: str | None = None,
    max_bytes: int | None = None,
) -> dict[str, Any]:
    """The `profile` field of a Go CPU profile: kind cpu, unit nanoseconds, capped stacks."""
    folded = pprof_file.with_suffix(".folded")
    drv.check([str(tool), str(pprof_file), str(folded)], echo=False)
    stacks = cap_stacks(parse_folded(folded.read_text()), max_bytes=max_bytes)
    if not stacks:
        drv.fail(f"{pprof_file}: the CPU profile holds no samples")
    return profile_field(stacks, kind="cpu", unit="nanoseconds", metric=metric)


def attach(
    results: list[dict[str, Any]],
    profile: dict[str, Any],
    *,
    benchmark: str,
    parameters: Mapping[str, Any] | None = None,
) -> bool:
    """Set `profile` on the result of `benchmark` (whose parameters include `parameters`);
    the profile's `metric` is dropped when that entry lacks the metric. True if one matched."""
    for result in results:
        params = result.get("parameters", {})
        if result["benchmark"] != benchmark or any(
            params.get(k) != v for k, v in (parameters or {}).items()
        ):
            continue
        entry = dict(profile)
        names = {m["name"] for m in result["metrics"]}
        if entry.get("metric") is not None and entry["metric"] not in names:
            del entry["metric"]
        result["profile"] = entry
        return True
    return False
