"""Per-function costs and differential profiles, pure: a profile's top functions, the change
of each function's self cost between two profiles, and the root-cause sentence of an alert
("+9.8 % in relay::crypto::cbc_encrypt, +0.3 % elsewhere").

Percentages are of the base profile's total; "elsewhere" is the rest of the total change.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from benchdash.profiles.folded import Stack, inclusive_costs, self_costs, total

TOP_FUNCTIONS = 50
TOP_DIFF = 20
ROOT_CAUSE_FUNCTIONS = 10
NAMED = 3  # the summary names at most this many functions …
NAMED_SHARE = 0.5  # … each at least this share of the first one's growth
# A sampled profile's counts move a little every run: its root cause lists, after the first, only
# the functions that grew by a share the flame graph colours (its "unchanged" band, 0.5 %).
SAMPLED_MIN_PCT = 0.5
MINUS = "\u2212"


def functions(stacks: Mapping[Stack, int], limit: int = TOP_FUNCTIONS) -> list[dict[str, Any]]:
    """The top `limit` functions by self cost: `{name, self, inclusive}`."""
    own, incl = self_costs(stacks), inclusive_costs(stacks)
    ranked = sorted(own.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
    return [{"name": name, "self": cost, "inclusive": incl[name]} for name, cost in ranked]


def pct_of(delta: int, base_total: int) -> float:
    """100 · delta / base_total (0 when the base total is 0: nothing to be a share of)."""
    return 100.0 * delta / base_total if base_total else 0.0


def diff_functions(
    base: Mapping[Stack, int], head: Mapping[Stack, int], limit: int = TOP_DIFF
) -> list[dict[str, Any]]:
    """Every function's self cost on both sides, by growth (delta_self descending), top `limit`:
    `{name, self_base, self_head, delta_self, pct_of_base_total}`."""
    own_base, own_head, base_total = self_costs(base), self_costs(head), total(base)
    rows = [
        (own_head.get(name, 0) - own_base.get(name, 0), name)
        for name in own_base.keys() | own_head.keys()
    ]
    rows.sort(key=lambda row: (-row[0], row[1]))
    return [
        {
            "name": name,
            "self_base": own_base.get(name, 0),
            "self_head": own_head.get(name, 0),
            "delta_self": delta,
            "pct_of_base_total": pct_of(delta, base_total),
        }
        for delta, name in rows[:limit]
    ]


def elsewhere_pct(base_total: int, head_total: int, listed: list[dict[str, Any]]) -> float:
    """The total change (% of the base total) that the listed functions do not account for."""
    change = pct_of(head_total - base_total, base_total)
    return change - sum(float(f["pct_of_base_total"]) for f in listed)


def signed(pct: float) -> str:
    """'+9.8 %', '−0.3 %' (the UI's minus sign), '+0.0 %' for what rounds to zero."""
    if abs(pct) < 0.05:
        return "+0.0 %"
    sign = "+" if pct > 0 else MINUS
    return f"{sign}{abs(pct):.1f} %"


def root_cause(
    base: Mapping[Stack, int], head: Mapping[Stack, int], *, min_pct: float = 0.0
) -> dict[str, Any]:
    """The functions whose self cost grew most (at most 10, growth only; after the first, by at
    least `min_pct` % of the base total), what the summary
    names (the first, and up to two more that grew at least half as much), the rest of the
    total change as `elsewhere_pct`, and the summary sentence."""
    base_total, head_total = total(base), total(head)
    grown = [
        f for f in diff_functions(base, head, limit=ROOT_CAUSE_FUNCTIONS) if f["delta_self"] > 0
    ]
    grown = grown[:1] + [f for f in grown[1:] if float(f["pct_of_base_total"]) >= min_pct]
    if not grown:
        change = pct_of(head_total - base_total, base_total)
        summary = f"no function's own cost grew ({signed(change)} in total)"
        return {"functions": [], "elsewhere_pct": change, "summary": summary}
    first = float(grown[0]["pct_of_base_total"])
    named = [f for f in grown[:NAMED] if float(f["pct_of_base_total"]) >= NAMED_SHARE * first]
    rest = elsewhere_pct(base_total, head_total, named)
    parts = [f"{signed(float(f['pct_of_base_total']))} in {f['name']}" for f in named]
    summary = ", ".join([*parts, f"{signed(rest)} elsewhere"])
    return {"functions": grown, "elsewhere_pct": rest, "summary": summary}
