"""Wire types of the runs domain: run summaries, triggering, agent reports, the event stream."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Generic, Literal, TypeVar

from pydantic import BaseModel, Field

from benchdash.kit.validation import SafeStr
from benchdash.runs.states import RunStatus, RunTrigger

T = TypeVar("T")
MAX_LINE, MAX_LINES = 2_000, 1_000  # per report: at most 2 MB of log, under the body limit
RunId = Annotated[int, Field(ge=1, le=2**31 - 1, description="A run id.")]


class Page(BaseModel, Generic[T]):
    """One page of a list."""

    items: list[T]
    total: int = Field(description="Items matching the filters, on every page.")
    limit: int
    offset: int


class Progress(BaseModel):
    """Where a run is: scenario i of n, percent, estimated seconds left."""

    done: int = Field(ge=0, le=1_000_000, description="Scenarios finished.")
    total: int = Field(ge=1, le=1_000_000, description="Scenarios in the run.")
    scenario: SafeStr | None = Field(None, max_length=300, description="The one running now.")
    percent: float = Field(ge=0, le=100, description="Share of the run done.")
    eta_s: float | None = Field(None, ge=0, le=10**7, description="Seconds left, estimated.")


class RunSummary(BaseModel):
    """A run without its measurements."""

    id: int
    system: str
    external_id: str | None = Field(description="The uploader's idempotency key.")
    commit: str | None
    branch: str
    testbed: str | None
    version: str | None
    trigger: RunTrigger
    profile: str | None
    status: RunStatus
    message: str | None = Field(description="Why it failed or was cancelled.")
    created_at: datetime
    started_at: datetime
    finished_at: datetime | None
    url: str = Field(description="The UI path of the run.")
    counts: dict[str, int] = Field(default_factory=dict, description="Verdicts by level.")
    ref: str | None = Field(None, description="The git ref a triggered run checks out.")
    requested_benchmarks: list[str] | None = Field(
        None, description="The scenarios a triggered run was asked for (null: the whole profile)."
    )
    progress: Progress | None = None
    cancel_requested: bool = False
    agent: str | None = Field(None, description="The runner agent working on it.")
    rerun_of: int | None = Field(None, description="The run whose suspected change this re-checks.")
    task: dict[str, Any] | None = Field(
        None, description="Work other than benchmarking for the agent (runners/CONTRACT.md)."
    )


class RunCreate(BaseModel):
    """What to run: a system at a ref of this repository, with a profile."""

    system: str = Field(pattern=r"^[a-z0-9][a-z0-9_.-]{0,63}$")
    ref: str = Field("main", min_length=1, max_length=200, pattern=r"^[A-Za-z0-9._/@^~-]+$")
    profile: str = Field(
        "quick",
        pattern=r"^[A-Za-z0-9_.-]{1,40}$",
        description="A profile the system's manifest declares (quick, standard, full, or its own, "
        "such as relay's instructions).",
    )
    benchmarks: list[Annotated[SafeStr, Field(max_length=300)]] | None = Field(None, max_length=200)
    branch: SafeStr | None = Field(None, min_length=1, max_length=200)
    trigger: Literal[RunTrigger.WEB, RunTrigger.SCHEDULE] = Field(
        RunTrigger.WEB, description="schedule: the agents' cron"
    )


class RunQueued(RunSummary):
    """The run just queued, and whether an agent is there to take it."""

    warning: str | None = Field(
        None,
        description="Set when no runner agent of the system is online: the run waits for one "
        "and fails after the configured wait (BENCHDASH_NO_AGENT_WAIT_S).",
    )
    ref_warning: str | None = Field(
        None,
        description="Set when the ref could not be checked against the system's repository "
        "(unreachable from the API, or too slow: BENCHDASH_REF_CHECK_TIMEOUT_S).",
    )


class AgentHeartbeat(BaseModel):
    """A runner agent saying it is alive (every few seconds, busy or idle)."""

    name: SafeStr = Field(min_length=1, max_length=200, description="The agent (host/pid).")
    host: SafeStr | None = Field(None, max_length=200, description="Its host id (host lock).")


class AgentClaim(AgentHeartbeat):
    """A runner agent asking for work, optionally waiting for it (long poll)."""

    wait_s: float = Field(
        0,
        strict=True,
        ge=0,
        le=30,
        description="With no work now, wait up to this many seconds for a run to be queued "
        "(answered the moment one is); 0 answers at once.",
    )


class AgentAck(BaseModel):
    """The API's answer to a heartbeat."""

    live_agents: int = Field(description="Agents of the system online now, this one included.")


class AgentWork(BaseModel):
    """The API's answer to an agent asking for work (a claim also counts as a heartbeat)."""

    run_id: int | None = Field(
        None, description="The queued run now this agent's to carry out; null: nothing to do."
    )
    reason: str | None = Field(
        None, description="Why there is nothing to do although runs may wait (its host is busy)."
    )
    source_url: str | None = Field(
        None, description="The git URL of the system's source: the agent fetches the run's ref."
    )


AgentState = Literal[
    RunStatus.BUILDING,
    RunStatus.RUNNING,
    RunStatus.UPLOADING,
    RunStatus.FAILED,
    RunStatus.CANCELLED,
    RunStatus.TIMED_OUT,
]


class RunReport(BaseModel):
    """An agent's heartbeat, optionally with a state change, progress and log lines."""

    status: AgentState | None = None
    message: SafeStr | None = Field(None, max_length=20_000)
    progress: Progress | None = None
    lines: list[Annotated[SafeStr, Field(max_length=MAX_LINE)]] = Field(
        default_factory=list, max_length=MAX_LINES, description="Send longer output in batches."
    )
    agent: SafeStr | None = Field(None, max_length=200)


class ReportAck(BaseModel):
    """What the agent must do next."""

    status: RunStatus
    cancel_requested: bool


# The event stream (GET /api/v1/runs/{id}/events): `event: <kind>` and `data: <one of these>`.


class SnapshotEvent(BaseModel):
    """`snapshot`: the run as it is when the stream starts (no id)."""

    status: RunStatus
    progress: Progress | None
    message: str | None


class StateEvent(BaseModel):
    """`state`: the run changed state."""

    status: RunStatus
    message: str | None
    at: datetime


class ProgressEvent(Progress):
    """`progress`: a new progress report."""

    at: datetime


class LogEvent(BaseModel):
    """`log`: lines the driver printed (or the agent said)."""

    lines: list[str]
    at: datetime


class EndEvent(BaseModel):
    """`end`: the run reached a final state; the stream closes."""

    status: RunStatus


class RunEvents(BaseModel):
    """The payload of each event kind of the stream (documentation of `text/event-stream`)."""

    snapshot: SnapshotEvent
    state: StateEvent
    progress: ProgressEvent
    log: LogEvent
    end: EndEvent
