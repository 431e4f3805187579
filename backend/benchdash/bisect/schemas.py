"""Wire types of bisections: starting one, an agent's list of commits, a bisection read."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, Field, StrictBool

from benchdash.bisect.states import BisectState, Verdict
from benchdash.kit.validation import SafeStr
from benchdash.runs.states import RunStatus

Sha = Annotated[str, Field(pattern=r"^[0-9a-f]{7,64}$", description="A commit id.")]
RunRef = Annotated[int, Field(ge=1, le=2**31 - 1, description="A run id.")]


class BisectFromAlert(BaseModel):
    """Bisect the commit range an alert names."""

    first_parent: StrictBool = Field(
        True, description="Only the first-parent line (false: a merge's side commits too)."
    )


class BisectFromRuns(BisectFromAlert):
    """Bisect between a good and a bad run of one system, for one benchmark's metric."""

    good_run_id: RunRef
    bad_run_id: RunRef
    benchmark: SafeStr = Field(min_length=1, max_length=300)
    params: SafeStr | None = Field(
        None, max_length=4000, description="Canonical JSON of its parameters (params_key)."
    )
    metric: str = Field(min_length=1, max_length=120, pattern=r"^[A-Za-z0-9_.%/\-]+$")


class CommitIn(BaseModel):
    """One commit of the range as the agent's repository has it."""

    sha: Annotated[str, Field(pattern=r"^[0-9a-f]{40,64}$")]
    subject: SafeStr = Field("", max_length=2000)
    author: SafeStr = Field("", max_length=300)


class CommitsIn(BaseModel):
    """An agent's answer to a `revlist` task: the commits of good..bad, oldest first, or why
    it could not list them."""

    commits: list[CommitIn] | None = Field(None, max_length=100_000)
    error: SafeStr | None = Field(None, max_length=2000)


class CommitRead(BaseModel):
    """A commit of the range."""

    sha: str
    subject: str
    author: str


class StepRead(BaseModel):
    """One step: the run at a candidate commit and its verdict against both ends."""

    id: int
    position: int = Field(description="Its index among the bisection's commits (0: oldest).")
    commit: str
    subject: str | None
    run_id: int | None
    run_status: RunStatus | None
    verdict: Verdict
    evidence: dict[str, Any] | None = Field(
        None,
        description="Medians of the midpoint and both ends, p-values, why (or the run's failure).",
    )
    created_at: datetime
    finished_at: datetime | None


class BisectionRead(BaseModel):
    """A bisection with its range, steps so far and result."""

    id: int
    alert_id: int | None
    system: str
    benchmark: str
    metric: str
    profile: str
    branch: str
    first_parent: bool
    state: BisectState
    message: str | None = Field(description="What it found, or why it stopped.")
    good_run_id: int | None
    bad_run_id: int | None
    good_commit: str
    bad_commit: str
    revlist_run_id: int | None = Field(description="The agent's task listing the commits.")
    commits: list[CommitRead] | None = Field(
        description="good..bad, oldest first (null: not listed yet)."
    )
    range_good: str = Field(description="The narrowed range: the last commit known good…")
    range_bad: str = Field(description="…and the first commit known bad.")
    remaining: int | None = Field(description="Candidates left between them.")
    expected_steps: int | None = Field(description="About log2 of the range's length.")
    steps: list[StepRead]
    culprit: CommitRead | None = Field(description="The first bad commit, once found.")
    skipped: list[str] = Field(description="Commits skipped because their build failed.")
    created_by: str
    created_at: datetime
    finished_at: datetime | None
