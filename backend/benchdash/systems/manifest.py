"""Runner manifests: what an agent registers for its system (one source of truth)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from croniter import croniter
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from sqlalchemy.orm import Session

from benchdash.kit.validation import HTTP_URL, SafeJson, SafeStr
from benchdash.systems import bounds
from benchdash.systems import service as system_service
from benchdash.systems.models import DEFAULT_THRESHOLDS, Metric, System

# A profile name is what a run stores (`run.profile`, 40 characters) and what a person types:
# letters, digits, '_', '.', '-'. The pattern states it in the OpenAPI document.
PROFILE_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$"
ProfileName = Annotated[
    str, Field(pattern=PROFILE_PATTERN, description="A profile's name, e.g. `quick`.")
]


def _profiles_schema(schema: dict[str, Any]) -> None:
    """State the name rule as `propertyNames` (pydantic writes `patternProperties`, which lets
    any other name through unchecked)."""
    value = next(iter(schema.pop("patternProperties", {}).values()), None)
    if value is not None:
        schema["additionalProperties"] = value
    schema["propertyNames"] = {"pattern": PROFILE_PATTERN, "maxLength": 40}


def check_profile_name(name: object) -> None:
    """Refuse a profile name a run cannot store, naming it ASCII-escaped (it may hold NUL or a
    lone surrogate, which a response body cannot carry raw)."""
    if not isinstance(name, str) or not re.fullmatch(PROFILE_PATTERN, name):
        raise ValueError(
            f"profile name {name!a} must be 1 to 40 letters, digits, '_', '.' or '-', "
            "starting with a letter or digit"
        )


class ManifestMetric(BaseModel):
    """A metric the system's driver emits, with optional threshold overrides (percent)."""

    model_config = ConfigDict(extra="ignore")

    name: str = Field(min_length=1, max_length=120, pattern=r"^[A-Za-z0-9_.%/\-]+$")
    unit: SafeStr = Field(min_length=1, max_length=40)
    direction: Literal["higher_is_better", "lower_is_better"]
    warn: float = Field(DEFAULT_THRESHOLDS.warn, gt=0, le=1000)
    fail: float = Field(DEFAULT_THRESHOLDS.fail, gt=0, le=1000)
    min: float | None = Field(
        None, description="The lowest value possible; an upload below it is refused."
    )
    max: float | None = Field(
        None,
        description="The highest value possible; an upload above it is refused. A `%` unit is "
        "0–100 unless min or max say otherwise.",
    )

    @model_validator(mode="after")
    def _ordered(self) -> ManifestMetric:
        if self.fail < self.warn:
            raise ValueError(f"metric {self.name}: fail ({self.fail}) below warn ({self.warn})")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"metric {self.name}: min ({self.min}) above max ({self.max})")
        return self


class ManifestProfile(BaseModel):
    """A profile: its scenarios, repetitions and time limits (build phase, benchmark phase)."""

    model_config = ConfigDict(extra="ignore")

    description: SafeStr = Field("", max_length=2000)
    time_limit_s: int = Field(
        600, gt=0, le=24 * 3600, description="Seconds the benchmark phase of a run may take."
    )
    build_timeout_s: int = Field(
        1800,
        gt=0,
        le=24 * 3600,
        description="Seconds the build phase of a run may take (a cold first build is long).",
    )
    repetitions: int = Field(1, ge=1)
    scenarios: list[Annotated[SafeStr, Field(max_length=300)]] = Field(
        default_factory=list, max_length=10_000
    )


class ManifestSchedule(BaseModel):
    """A cron schedule of a profile."""

    cron: SafeStr = Field(max_length=200)
    profile: ProfileName = "quick"

    @field_validator("profile", mode="before")
    @classmethod
    def _profile_name(cls, value: Any) -> Any:
        check_profile_name(value)
        return value

    @field_validator("cron")
    @classmethod
    def _valid_cron(cls, value: str) -> str:
        if not croniter.is_valid(value):
            raise ValueError(f"not a cron expression: {value!r}")
        return value


class Manifest(BaseModel):
    """The runner.toml of a system, as the agent sends it."""

    model_config = ConfigDict(extra="ignore", allow_inf_nan=False)

    system: str = Field(pattern=r"^[a-z0-9][a-z0-9_.-]{0,63}$")
    name: SafeStr = Field(min_length=1, max_length=200)
    language: SafeStr | None = Field(None, max_length=64)
    description: SafeStr | None = Field(None, max_length=2000)
    headline: dict[SafeStr, SafeStr] | None = None
    driver: SafeJson = Field(default_factory=dict)
    profiles: dict[ProfileName, ManifestProfile] = Field(
        min_length=1, json_schema_extra=_profiles_schema
    )
    schedule: ManifestSchedule | None = None
    repository: SafeStr | None = Field(
        None,
        max_length=500,
        pattern=HTTP_URL,
        description="Where the commits live (https://github.com/owner/repo): alerts link their "
        "commit range there.",
    )
    metrics: list[ManifestMetric] = Field(default_factory=list)

    @field_validator("profiles", mode="before")
    @classmethod
    def _profile_names(cls, value: Any) -> Any:
        # Before pydantic's own key check, whose error would carry the raw key in its `loc`.
        if isinstance(value, dict):
            for name in value:
                check_profile_name(name)
        return value

    @model_validator(mode="after")
    def _schedule_profile_exists(self) -> Manifest:
        if self.schedule and self.schedule.profile not in self.profiles:
            raise ValueError(f"schedule names unknown profile {self.schedule.profile!r}")
        return self


def register(
    *, session: Session, slug: str, manifest: Manifest, by: str
) -> tuple[System, list[Metric]]:
    """Store the manifest and apply its system fields and metric thresholds (audited)."""
    headline = manifest.headline or {}
    system = system_service.ensure_system(session=session, slug=slug, name=manifest.name)
    system.name = manifest.name
    system.language = manifest.language
    system.description = manifest.description
    system.headline_benchmark = headline.get("benchmark")
    system.headline_metric = headline.get("metric")
    system.manifest = manifest.model_dump(mode="json")
    system.repository = manifest.repository or system.repository
    declared: dict[str, tuple[str, str]] = {m.name: (m.unit, m.direction) for m in manifest.metrics}
    stored = system_service.ensure_metrics(session=session, system_id=system.id, declared=declared)
    for m in manifest.metrics:
        system_service.apply_thresholds(
            session=session, system=system, metric=stored[m.name], warn=m.warn, fail=m.fail, by=by
        )
        bounds.apply(
            session=session, system=system, metric=stored[m.name], low=m.min, high=m.max, by=by
        )
    session.flush()
    return system, [stored[m.name] for m in manifest.metrics]


def next_scheduled(system: System, now: datetime | None = None) -> tuple[datetime, str] | None:
    """When the manifest's schedule fires next, and with which profile."""
    schedule = (system.manifest or {}).get("schedule")
    if not schedule:
        return None
    base = now or datetime.now(UTC)
    nxt = croniter(schedule["cron"], base).get_next(datetime)
    return nxt, schedule.get("profile", "quick")
