"""Turn the server's verdicts into a terminal table, a CI gate and a Markdown job summary."""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

# Most alarming first; the order of rows in the table and the summary.
LEVELS = ("fail", "warn", "noisy", "unstable", "improved", "ok", "learning", "no_baseline")
GATES = {"warn": {"warn", "fail"}, "fail": {"fail"}, "never": set()}
_STYLE = {"fail": "bold red", "warn": "yellow", "improved": "green", "noisy": "magenta"}
MISSING = "\u2013"  # en dash
_ICON = {"fail": "🔴", "warn": "🟡", "improved": "🟢", "noisy": "〰️", "unstable": "⚠️"}
TABLE_ROWS_MAX = 50


def gate(verdicts: list[dict[str, Any]], fail_on: str) -> list[dict[str, Any]]:
    """Return the verdicts at or above `fail_on` (warn|fail|never) that should fail the job."""
    levels = GATES[fail_on]
    return [v for v in verdicts if v.get("level") in levels]


def sort_verdicts(verdicts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Order verdicts by severity, then by benchmark and metric."""
    rank = {level: i for i, level in enumerate(LEVELS)}
    return sorted(
        verdicts,
        key=lambda v: (rank.get(v.get("level", ""), len(LEVELS)), series_label(v), v.get("metric")),
    )


def series_label(v: dict[str, Any]) -> str:
    """`benchmark {k=v, ...}` for a verdict."""
    params = v.get("parameters") or {}
    if not params:
        return str(v.get("benchmark", "?"))
    inner = ", ".join(
        f"{k}={json.dumps(val) if isinstance(val, str) else val}" for k, val in params.items()
    )
    return f"{v.get('benchmark', '?')} {{{inner}}}"


def counts_line(verdicts: list[dict[str, Any]]) -> str:
    """`1 fail, 2 warn, 10 ok` in severity order."""
    counts = Counter(v.get("level", "?") for v in verdicts)
    parts = [f"{counts[level]} {level}" for level in LEVELS if counts[level]]
    parts += [f"{n} {level}" for level, n in counts.items() if level not in LEVELS]
    return ", ".join(parts) or "no verdicts"


def print_table(console: Console, verdicts: list[dict[str, Any]]) -> None:
    """Print the verdicts; past TABLE_ROWS_MAX rows the `ok`/`no_baseline` ones are counted only."""
    rows = sort_verdicts(verdicts)
    hidden = 0
    if len(rows) > TABLE_ROWS_MAX:
        quiet = {"ok", "learning", "no_baseline"}
        hidden = sum(1 for v in rows if v.get("level") in quiet)
        rows = [v for v in rows if v.get("level") not in quiet]
    table = Table(show_lines=False, header_style="bold")
    for col in ("level", "benchmark", "metric", "value", "baseline", "change", "p"):
        right = col in ("value", "baseline", "change", "p")
        table.add_column(col, justify="right" if right else "left", overflow="fold")
    for v in rows:
        level = str(v.get("level", "?"))
        table.add_row(
            f"[{_STYLE.get(level, '')}]{level}[/]" if level in _STYLE else level,
            series_label(v),
            str(v.get("metric", "?")),
            f"{fmt_number(v.get('value'))} {v.get('unit', '')}".strip(),
            fmt_number(v.get("baseline")),
            fmt_change(v.get("change_pct"), v.get("direction")),
            fmt_number(v.get("p_value")),
        )
    console.print(table)
    if hidden:
        console.print(f"({hidden} ok / learning / no_baseline verdicts not shown)")


def markdown(
    *,
    response: dict[str, Any],
    base_url: str,
    fail_on: str,
    system: str,
    headline: str | None = None,
    extra: Sequence[str] = (),
) -> str:
    """Render the job summary: headline (the upload's decision when given, else the gate),
    `extra` lines (a pull request's comparison), regressed series with chart links, all
    verdicts."""
    run = response.get("run") or {}
    verdicts = sort_verdicts(list(response.get("verdicts") or []))
    base = base_url.rstrip("/")
    failing = gate(verdicts, fail_on)
    status = headline or ("❌ regression" if failing else "✅ no regression")
    run_link = f"[run {run.get('id', '?')}]({base}{run['url']})" if run.get("url") else "run"
    lines = [
        f"## benchdash: {run.get('system', system)} — {status}",
        "",
        f"{run_link} on `{run.get('branch', '?')}` at `{(run.get('commit') or '?')[:12]}`"
        f" (testbed `{run.get('testbed', '?')}`): {counts_line(verdicts)}.",
        *extra,
    ]
    if response.get("created") is False:
        lines += ["", f"_Already uploaded as `{run.get('external_id')}`: nothing new was stored._"]
    regressed = [v for v in verdicts if v.get("level") in ("fail", "warn")]
    if regressed:
        lines += ["", "### Regressions", "", *_md_table(regressed, base)]
    rest = [v for v in verdicts if v.get("level") not in ("fail", "warn")]
    if rest:
        lines += ["", f"<details><summary>All other verdicts ({len(rest)})</summary>", ""]
        lines += [*_md_table(rest, base), "", "</details>"]
    return "\n".join(lines) + "\n"


def _md_table(verdicts: list[dict[str, Any]], base: str) -> list[str]:
    out = [
        "| | series | metric | value | baseline | change | p | why |",
        "|---|---|---|---:|---:|---:|---:|---|",
    ]
    for v in verdicts:
        level = str(v.get("level", "?"))
        label = md_escape(series_label(v))
        if v.get("series_url"):
            label = f"[{label}]({md_url(base + str(v['series_url']))})"
        out.append(
            f"| {badge(level)} | {label} | {md_escape(str(v.get('metric', '?')))}"
            f" | {fmt_number(v.get('value'))} {md_escape(str(v.get('unit', '')))}"
            f" | {fmt_number(v.get('baseline'))}"
            f" | {fmt_change(v.get('change_pct'), v.get('direction'))}"
            f" | {fmt_number(v.get('p_value'))} | {md_escape(str(v.get('explanation') or ''))} |"
        )
    return out


def badge(level: str) -> str:
    """The level with its icon, for Markdown tables."""
    return f"{_ICON[level]} {level}" if level in _ICON else level


def fmt_number(x: Any) -> str:
    """Four significant digits, or an en dash for a missing value."""
    if x is None:
        return MISSING
    if isinstance(x, (int, float)):
        return f"{x:.4g}"
    return str(x)


def fmt_change(x: Any, direction: Any = "lower_is_better") -> str:
    """The change in the metric's own direction, with a word: "-11.8 % · worse" for a throughput
    that fell (the server's change_pct is positive when worse, whatever the direction)."""
    if not isinstance(x, (int, float)):
        return MISSING
    if round(x, 1) == 0:
        return "0.0 %"
    moved = -x if direction == "higher_is_better" else x
    return f"{'+' if moved > 0 else '-'}{abs(x):.1f} % · {'worse' if x > 0 else 'better'}"


def md_url(url: str) -> str:
    """Percent-encode the few characters that would end a Markdown link or table cell."""
    for char, code in ((" ", "%20"), ("(", "%28"), (")", "%29"), ("|", "%7C")):
        url = url.replace(char, code)
    return url


def md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def write(text: str, path: Path | None) -> None:
    """Write the summary to `path` and append it to GitHub's job summary when set (that file
    is shared by every step of the job); an OSError names the file."""
    targets: dict[Path, str] = {}
    if os.environ.get("GITHUB_STEP_SUMMARY"):
        targets[Path(os.environ["GITHUB_STEP_SUMMARY"])] = "a"
    if path:
        targets.setdefault(path, "w")
    for target, mode in targets.items():
        with target.open(mode, encoding="utf-8") as f:
            f.write(text)
