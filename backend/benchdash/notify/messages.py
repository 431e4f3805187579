"""What a notification says: a title and one sentence per event, with the one sign convention
("−11.8 % req/s · worse", `regression.explain.format_change`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from benchdash.config import get_settings
from benchdash.regression.explain import format_change


def link(path: str) -> str | None:
    """An absolute link into the dashboard when its public URL is configured."""
    base = get_settings().public_url
    return f"{base.rstrip('/')}{path}" if base else None


def _commit(commit: str | None) -> str:
    return f" ({commit[:12]})" if commit else ""


def worst(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A summary's worst alerts as a notification lists them, each with its change in words."""
    keys = ("id", "benchmark", "metric", "testbed", "level", "change_pct", "run_id")
    return [
        {
            **{k: r[k] for k in keys},
            "change": format_change(r["change_pct"], r["direction"], r["unit"]),
        }
        for r in rows
    ]


def _summary_text(summary: Mapping[str, Any]) -> str:
    """The summary in a sentence: how many series, the range, the worst ones."""
    counts, rng = summary["counts"], summary["range"]
    span = f"{(rng['last_good_commit'] or '?')[:12]}..{(rng['first_bad_commit'] or '?')[:12]}"
    named = "; ".join(f"{w['benchmark']} · {w['metric']} {w['change']}" for w in summary["worst"])
    more = counts["alerts"] - len(summary["worst"])
    return (
        f" Alert summary #{summary['id']}: {counts['alerts']} series ({counts['fail']} fail,"
        f" {counts['warn']} warn) in {span}. Worst: {named}"
        + (f" and {more} more." if more > 0 else ".")
    )


def alert_payload(
    *,
    event: str,
    system: str,
    branch: str,
    alert: dict[str, Any],
    summary: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The payload of an opened, grown, re-graded or resolved alert (or its summary's);
    `alert` holds its facts and names, `summary` the summary's (`notify.outbox`)."""
    change = format_change(alert["change_pct"], alert["direction"], alert["unit"])
    what = f"{alert['benchmark']} · {alert['metric']}"
    where = f"{system} ({branch})"
    many = summary is not None and summary["counts"]["alerts"] > 1
    if many:
        assert summary is not None
        what = f"{summary['counts']['alerts']} series, worst {what}"
    if event in ("alert.opened", "alert.updated"):
        verb = "Regression" if event == "alert.opened" else "More series in a regression"
        title = f"{verb} in {where}: {what} {change}"
        text = (
            f"{title}. Confirmed {alert['level']} step from run #{alert['run_id']}"
            f"{_commit(alert.get('commit'))}."
        )
        if alert.get("root_cause"):  # the profile's summary: "+9.8 % in f, +0.3 % elsewhere"
            text += f" Profile: {alert['root_cause']}."
    elif event == "alert.regraded":
        worse = alert["level"] == "fail"
        title = f"{'Now failing' if worse else 'Back to a warning'} in {where}: {what} {change}"
        text = (
            f"{title}. Alert #{alert['id']} is {alert['level']} (was {alert['previous_level']}):"
            f" its step, measured on {alert['graded_runs']} runs since run #{alert['run_id']},"
            f" is {change}."
        )
    elif many:
        assert summary is not None
        title = f"Recovered in {where}: {summary['counts']['alerts']} series"
        text = f"{title} are back at their levels, the last by run #{alert['by_run_id']}."
    else:
        title = f"Recovered in {where}: {what}"
        text = (
            f"{title} is back at its level (the step was {change}), by run #{alert['by_run_id']}."
        )
    if many and event != "alert.resolved":
        assert summary is not None
        text += _summary_text(summary)
    url = link(f"/alerts?system={system}")
    out = {
        "event": event,
        "system": system,
        "branch": branch,
        "title": title,
        "text": text + (f" {url}" if url else ""),
        "url": url,
        "alert": {**alert, "change": change},
    }
    if summary is not None:
        out["summary"] = dict(summary)
    return out


def bisected_payload(
    *, system: str, branch: str, alert: dict[str, Any], culprit: dict[str, str]
) -> dict[str, Any]:
    """The payload sent when a bisection of an alert names its first bad commit."""
    change = format_change(alert["change_pct"], alert["direction"], alert["unit"])
    what = f"{alert['benchmark']} · {alert['metric']}"
    short = culprit["sha"][:12]
    title = f"Bisected in {system} ({branch}): {what} {change} since {short}"
    by = f" by {culprit['author']}" if culprit.get("author") else ""
    subject = f" “{culprit['subject']}”" if culprit.get("subject") else ""
    text = (
        f"{title}. The first bad commit of alert #{alert['id']} is {short}{subject}{by}"
        f" (bisection #{alert['bisection_id']})."
    )
    url = link(f"/alerts?system={system}")
    return {
        "event": "alert.bisected",
        "system": system,
        "branch": branch,
        "title": title,
        "text": text + (f" {url}" if url else ""),
        "url": url,
        "alert": {**alert, "change": change},
        "first_bad_commit": culprit,
    }


def run_payload(*, system: str, branch: str, run: dict[str, Any]) -> dict[str, Any]:
    """The payload of a failed run."""
    title = f"Run #{run['id']} of {system} ({branch}) {run['status']}"
    ref = run.get("ref") or run.get("commit") or "?"
    text = f"{title} at {ref}{': ' + run['message'] if run.get('message') else '.'}"
    url = link(f"/runs/{run['id']}")
    return {
        "event": "run.failed",
        "system": system,
        "branch": branch,
        "title": title,
        "text": text + (f" {url}" if url else ""),
        "url": url,
        "run": run,
    }


def test_payload(*, system: str, name: str, by: str) -> dict[str, Any]:
    """The payload of "send a test"."""
    title = f"Test notification for {system}"
    text = (
        f"{title}: subscription {name!r} works (sent by {by}). A regression would read like "
        f"'{format_change(11.8, 'higher_is_better', 'req/s')}'."
    )
    return {"event": "test", "system": system, "branch": None, "title": title, "text": text}
