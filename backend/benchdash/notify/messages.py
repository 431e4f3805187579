"""What a notification says: a title and one sentence per event, with the one sign convention
("−11.8 % req/s · worse", `regression.explain.format_change`)."""

from __future__ import annotations

from typing import Any

from benchdash.config import get_settings
from benchdash.regression.explain import format_change


def link(path: str) -> str | None:
    """An absolute link into the dashboard when its public URL is configured."""
    base = get_settings().public_url
    return f"{base.rstrip('/')}{path}" if base else None


def _commit(commit: str | None) -> str:
    return f" ({commit[:12]})" if commit else ""


def alert_payload(*, event: str, system: str, branch: str, alert: dict[str, Any]) -> dict[str, Any]:
    """The payload of an opened, re-graded or resolved alert; `alert` holds its facts and
    names."""
    change = format_change(alert["change_pct"], alert["direction"], alert["unit"])
    what = f"{alert['benchmark']} · {alert['metric']}"
    where = f"{system} ({branch})"
    if event == "alert.opened":
        title = f"Regression in {where}: {what} {change}"
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
    else:
        title = f"Recovered in {where}: {what}"
        text = (
            f"{title} is back at its level (the step was {change}), by run #{alert['by_run_id']}."
        )
    url = link(f"/alerts?system={system}")
    return {
        "event": event,
        "system": system,
        "branch": branch,
        "title": title,
        "text": text + (f" {url}" if url else ""),
        "url": url,
        "alert": {**alert, "change": change},
    }


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
