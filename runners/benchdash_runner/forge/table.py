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
from benchdash_runner.decision import FAILURE, NEUTRAL, SUCCESS, Decision

MARKER = "<!-- benchdash-report system={system} -->"
CHANGED = ("fail", "warn", "improved", "noisy", "unstable")


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


def body(
    *,
    response: dict[str, Any],
    alerts: list[dict[str, Any]],
    base_url: str,
    system: str,
    decided: Decision,
) -> str:
    """The Markdown of the pull request's comment (and of the check run's text)."""
    run = response.get("run") or {}
    verdicts = list(response.get("verdicts") or [])
    base = base_url.rstrip("/")
    icon = {FAILURE: "❌", NEUTRAL: "⚠️", SUCCESS: "✅"}[decided.conclusion]
    run_link = f"[run {run.get('id', '?')}]({base}{run['url']})" if run.get("url") else "run"
    lines = [
        marker(system),
        f"## benchdash: {run.get('system', system)} {icon} {decided.title}",
        "",
        f"{run_link} on `{run.get('branch', '?')}` at `{(run.get('commit') or '?')[:12]}`"
        f" (testbed `{run.get('testbed', '?')}`).",
    ]
    lines += pr_lines(response.get("pr") or None, base)
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


def pr_lines(pr: dict[str, Any] | None, base: str) -> list[str]:
    """The pull request's verdict against its base: the base runs compared, a row a series."""
    if not pr:
        return []
    runs = pr.get("base_runs") or []
    name = summary.md_escape(str(pr.get("base_branch", "?")))
    if not runs:
        return ["", f"No runs of `{name}` to compare with yet."]
    named = ", ".join(
        f"[{r['run_id']}]({base}/runs/{r['run_id']}) `{(r.get('commit') or '?')[:7]}`" for r in runs
    )
    lines = ["", f"Compared with the last runs of `{name}`: {named}."]
    rows = [s for s in pr.get("series") or [] if s.get("outcome") != "ok"]
    if rows:
        lines += ["", "| | series | metric | change (95 % interval) | samples | why |"]
        lines += ["|---|---|---|---:|---:|---|"]
        lines += [_pr_row(s) for s in rows]
    return lines


def _pr_row(s: dict[str, Any]) -> str:
    icon = {"fail": "🔴", "warn": "🟡", "uncertain": "❔"}.get(str(s.get("outcome")), "·")
    params = s.get("params_key")
    label = f"{s.get('benchmark', '?')}{'' if params in (None, '{}') else ' ' + str(params)}"
    est, low, high = s.get("change_pct"), s.get("low_pct"), s.get("high_pct")
    change = summary.MISSING
    if (
        isinstance(est, int | float)
        and isinstance(low, int | float)
        and isinstance(high, int | float)
    ):
        word = "worse" if est >= 0 else "better"
        change = f"{abs(est):.1f} % {word} (worse by {low:.1f} … {high:.1f} %)"
    return (
        f"| {icon} {s.get('outcome')} | {summary.md_escape(label)}"
        f" | {summary.md_escape(str(s.get('metric', '?')))} | {change}"
        f" | {s.get('samples', '?')} | {summary.md_escape(str(s.get('reason', '')))} |"
    )


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
