"""Wire types of alert summaries: the list's cards, one summary with its alerts, triage."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated

from pydantic import AfterValidator, BaseModel, Field

from benchdash.alerts.schemas import AlertRead
from benchdash.alerts.states import AlertStatus, Resolution
from benchdash.kit.validation import HTTP_URL, SafeStr

_URL = re.compile(HTTP_URL)


def _http_url(value: str | None) -> str | None:
    if value is not None and not _URL.match(value):
        raise ValueError("issue_url must be an http(s) URL with a host, like https://x.test/1")
    return value


class SummaryCounts(BaseModel):
    """How many alerts a summary holds, still active, by level, and of how many benchmarks."""

    alerts: int
    active: int
    fail: int
    warn: int
    benchmarks: int
    testbeds: int


class WorstAlert(BaseModel):
    """One of a summary's worst alerts, as its card names it."""

    id: int
    benchmark: str
    metric: str
    testbed: str
    level: str
    change_pct: float | None
    status: AlertStatus


class AlertSummaryRead(BaseModel):
    """Alerts that share a culprit range on one system and branch, triaged as one."""

    id: int
    system: str
    branch: str
    kind: str = Field(description="step or drift")
    status: AlertStatus = Field(description="resolved when all of its alerts are")
    resolution: Resolution | None = Field(
        None, description="accepted (as expected) or invalid; null: not said"
    )
    first_bad_run_id: int | None
    last_good_run_id: int | None
    first_bad_commit: str | None
    last_good_commit: str | None = Field(
        description="The culprit range is last_good_commit..first_bad_commit."
    )
    commits_url: str | None = Field(None, description="The range in the system's repository.")
    counts: SummaryCounts
    worst: list[WorstAlert] = Field(description="Its worst alerts, worst first (up to 3).")
    opened_at: datetime
    updated_at: datetime
    resolved_at: datetime | None
    acknowledged_at: datetime | None
    acknowledged_by: str | None
    assignee: str | None
    issue_url: str | None
    triaged_by: str | None = Field(None, description="Who last triaged it (any action).")
    triaged_at: datetime | None = None


class AlertSummaryDetail(AlertSummaryRead):
    """One summary with every one of its alerts, worst first."""

    alerts: list[AlertRead]


class TriageNote(BaseModel):
    """Why (accepting as expected or marking invalid)."""

    note: Annotated[SafeStr, Field(min_length=1, max_length=500)] = Field(
        description='e.g. "new allocator" or "noisy runner"'
    )


class SummaryUpdate(BaseModel):
    """Assign the summary to a person and link an issue; a field left out stays, null clears."""

    assignee: Annotated[SafeStr, Field(min_length=1, max_length=120)] | None = None
    issue_url: Annotated[
        SafeStr | None, Field(min_length=1, max_length=2000), AfterValidator(_http_url)
    ] = None
