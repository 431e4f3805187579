"""The verdict table a pull request sees: one comment body and one check conclusion per run.

A row per changed series (fail, warn, improved, noisy, unstable, or any stage) and per open
confirmed alert of the run's branch and testbed: its change in the metric's own direction
(`summary.fmt_change`, never the internal "positive is worse" number), its floors, its stage,
and links to its chart and to the compare view. The body starts with a hidden marker naming
the system, so the next run finds and edits the same comment.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from benchdash_runner import summary

MARKER = "<!-- benchdash-report system={system} -->"
CHANGED = ("fail", "warn", "improved", "noisy", "unstable")
FAILURE, NEUTRAL, SUCCESS = "failure", "neutral", "success"


def marker(system: str) -> str:
    """The hidden first line of the comment of `system` (one comment per system and PR)."""
    return MARKER.format(system=system)


def changed(verdicts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The verdicts worth a row: a level other than ok/learning/no_baseline, or a stage."""
    rows = [v for v in verdicts if v.get("level") in CHANGED or v.get("stage")]
    return summary.sort_verdicts(rows)


def branch_alerts(alerts: list[dict[str, Any]], run: dict[str, Any]) -> list[dict[str, Any]]:
    """The confirmed steps still open on the run's branch and testbed."""
    return [
        a
        for a in alerts
        if a.get("branch") == run.get("branch")
        and a.get("testbed") == run.get("testbed")
        and a.get("status") in ("open", "acknowledged")
    ]


def conclusion(verdicts: list[dict[str, Any]], alerts: list[dict[str, Any]]) -> str:
    """failure only on a confirmed fail; neutral on anything suspected or warned; else success."""
    confirmed_fail = any(a.get("level") == "fail" for a in alerts) or any(
        v.get("level") == "fail" and v.get("stage") == "confirmed" for v in verdicts
    )
    if confirmed_fail:
        return FAILURE
    if alerts or any(v.get("stage") or v.get("level") in ("fail", "warn") for v in verdicts):
        return NEUTRAL
    return SUCCESS


def title(verdicts: list[dict[str, Any]], alerts: list[dict[str, Any]]) -> str:
    """One line for the check run: the conclusion in words and the verdict counts."""
    confirmed = sum(a.get("level") == "fail" for a in alerts) + sum(
        v.get("level") == "fail" and v.get("stage") == "confirmed" for v in verdicts
    )
    words = {
        FAILURE: f"{confirmed} confirmed regression(s)",
        NEUTRAL: "suspected change(s), not confirmed",
        SUCCESS: "no regression",
    }[conclusion(verdicts, alerts)]
    return f"{words} · verdicts: {summary.counts_line(verdicts)}"


def body(
    *, response: dict[str, Any], alerts: list[dict[str, Any]], base_url: str, system: str
) -> str:
    """The Markdown of the pull request's comment (and of the check run's text)."""
    run = response.get("run") or {}
    verdicts = list(response.get("verdicts") or [])
    base = base_url.rstrip("/")
    icon = {FAILURE: "❌", NEUTRAL: "⚠️", SUCCESS: "✅"}[conclusion(verdicts, alerts)]
    run_link = f"[run {run.get('id', '?')}]({base}{run['url']})" if run.get("url") else "run"
    lines = [
        marker(system),
        f"## benchdash: {run.get('system', system)} {icon} {title(verdicts, alerts)}",
        "",
        f"{run_link} on `{run.get('branch', '?')}` at `{(run.get('commit') or '?')[:12]}`"
        f" (testbed `{run.get('testbed', '?')}`).",
    ]
    rows = changed(verdicts)
    if rows:
        lines += ["", "| | series | metric | change | floor warn / fail | stage | links |"]
        lines += ["|---|---|---|---:|---:|---|---|"]
        lines += [_verdict_row(v, run, base, system) for v in rows]
    else:
        lines += ["", "No series changed beyond its floors."]
    if alerts:
        lines += ["", "### Confirmed steps open on this branch", ""]
        lines += ["| | series | metric | step | warn floor | first bad run | links |"]
        lines += ["|---|---|---|---:|---:|---|---|"]
        lines += [_alert_row(a, base, system) for a in alerts]
    lines += ["", "_This comment is updated in place by each run of `benchdash upload`._"]
    return "\n".join(lines) + "\n"


def _verdict_row(v: dict[str, Any], run: dict[str, Any], base: str, system: str) -> str:
    level = str(v.get("level", "?"))
    floors = f"{_pct(v.get('floor_warn'))} / {_pct(v.get('floor_fail'))}"
    olds = [int(i) for i in v.get("baseline_run_ids") or []]
    compare = compare_path(system, max(olds) if olds else None, run.get("id"))
    return (
        f"| {summary.badge(level)} | {summary.md_escape(summary.series_label(v))}"
        f" | {summary.md_escape(str(v.get('metric', '?')))}"
        f" | {summary.fmt_change(v.get('change_pct'), v.get('direction'))}"
        f" | {floors} | {v.get('stage') or summary.MISSING}"
        f" | {_links(base, v.get('series_url'), compare)} |"
    )


def _alert_row(a: dict[str, Any], base: str, system: str) -> str:
    level = str(a.get("level", "?"))
    compare = compare_path(system, a.get("last_good_run_id"), a.get("run_id"))
    first = f"run {a.get('run_id')} `{(a.get('commit') or '?')[:12]}`"
    return (
        f"| {summary.badge(level)} | {summary.md_escape(summary.series_label(a))}"
        f" | {summary.md_escape(str(a.get('metric', '?')))}"
        f" | {summary.fmt_change(a.get('change_pct'), a.get('direction'))}"
        f" | {_pct(a.get('warn_floor'))} | {first} · confirmed"
        f" | {_links(base, a.get('series_url'), compare)} |"
    )


def compare_path(system: str, old: Any, new: Any) -> str | None:
    """The UI path comparing run `old` with run `new` (None without the new run)."""
    if new is None:
        return None
    query: dict[str, Any] = {"system": system, "head": new}
    if old is not None:
        query["base"] = old
    return f"/compare?{urlencode(query)}"


def _links(base: str, chart: Any, compare: str | None) -> str:
    out = []
    if chart:
        out.append(f"[chart]({summary.md_url(base + str(chart))})")
    if compare:
        out.append(f"[compare]({summary.md_url(base + compare)})")
    return " · ".join(out) or summary.MISSING


def _pct(x: Any) -> str:
    return f"{x:.1f} %" if isinstance(x, (int, float)) else summary.MISSING
