"""`benchdash.toml`: the manifest a project keeps at the root of its own repository.

Each profile names a `build` command (optional), a `bench` command, the file the bench command
writes (`output`, a path in the repository) and its `format` (an upload adapter's name, or
`auto`); the generic driver (`benchdash_runner.project_driver`) runs them. A manifest may name
a driver script instead (`[driver] command`, the contract's command line). Thresholds and
metric directions are declared as in runners/<system>/runner.toml (runners/CONTRACT.md). A bad
manifest is refused with a message naming the field (`profiles.quick.bench: ...`).
"""

from __future__ import annotations

import tomllib
from pathlib import Path, PurePosixPath
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from benchdash_runner import adapters

FILENAME = "benchdash.toml"
FORMATS = sorted([*adapters.names(), *adapters.ALIASES, "auto"])
PROFILE_NAME = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$"

Text = Annotated[str, Field(max_length=2000)]
Argv = Annotated[list[Annotated[str, Field(min_length=1)]], Field(min_length=1)]
# A command: one shell line (run with `sh -c`) or an argv list.
Command = Annotated[str, Field(min_length=1, max_length=10_000)] | Argv


class ProjectManifestError(ValueError):
    """The benchdash.toml is missing or unusable; the message names the field to fix."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class Metric(_Strict):
    """A metric's unit and direction (they override the adapter's direction) and thresholds."""

    name: str = Field(min_length=1, max_length=120, pattern=r"^[A-Za-z0-9_.%/\-]+$")
    unit: str = Field(min_length=1, max_length=40)
    direction: Literal["higher_is_better", "lower_is_better"]
    warn: float = Field(5.0, gt=0, le=1000)
    fail: float = Field(10.0, gt=0, le=1000)
    min: float | None = None
    max: float | None = None
    description: Text = ""

    @model_validator(mode="after")
    def _ordered(self) -> Metric:
        if self.fail < self.warn:
            raise ValueError(f"fail ({self.fail}) is below warn ({self.warn})")
        return self


class Profile(_Strict):
    """One profile: what to build and run, what it writes, how long each phase may take."""

    description: Text = ""
    build: Command | None = None
    bench: Command | None = None
    output: str | None = Field(None, min_length=1, max_length=500)
    format: str = "auto"
    time_limit_s: int = Field(600, gt=0, le=24 * 3600)
    build_timeout_s: int = Field(1800, gt=0, le=24 * 3600)
    repetitions: int = Field(1, ge=1, le=1000)
    scenarios: list[Annotated[str, Field(min_length=1, max_length=300)]] = Field(
        default_factory=list, max_length=10_000
    )
    options: dict[str, Any] = Field(default_factory=dict)  # a driver script's own settings

    @field_validator("format")
    @classmethod
    def _known_format(cls, value: str) -> str:
        if value not in FORMATS:
            raise ValueError(f"unknown format {value!r}; one of {', '.join(FORMATS)}")
        return value

    @field_validator("output")
    @classmethod
    def _inside(cls, value: str | None) -> str | None:
        if value is not None and (PurePosixPath(value).is_absolute() or ".." in value.split("/")):
            raise ValueError(f"{value!r} must be a relative path inside the repository")
        return value


class Driver(_Strict):
    """A driver script instead of commands, and variables beside childenv's allow-list."""

    command: Argv | None = None
    pass_env: list[Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")]] = Field(
        default_factory=list
    )


class Schedule(_Strict):
    cron: str = Field(min_length=1, max_length=200)
    profile: str = Field("quick", pattern=PROFILE_NAME)


class ProjectManifest(_Strict):
    """A whole benchdash.toml."""

    system: str | None = Field(None, pattern=r"^[a-z0-9][a-z0-9_.-]{0,63}$")
    name: str | None = Field(None, min_length=1, max_length=200)
    language: str | None = Field(None, max_length=64)
    description: Text | None = None
    repository: str | None = Field(None, max_length=500, pattern=r"^https?://[^\s]+$")
    requires: list[str] = Field(default_factory=list)
    headline: dict[Literal["benchmark", "metric"], str] | None = None
    driver: Driver = Field(default_factory=Driver)
    profiles: dict[Annotated[str, Field(pattern=PROFILE_NAME)], Profile] = Field(min_length=1)
    schedule: Schedule | None = None
    metrics: list[Metric] = Field(default_factory=list)

    @model_validator(mode="after")
    def _complete(self) -> ProjectManifest:
        if self.driver.command is None:
            for name, p in self.profiles.items():
                for key in ("bench", "output"):
                    if getattr(p, key) is None:
                        raise ValueError(
                            f"profiles.{name}.{key} is required (or name a driver script in "
                            "[driver] command)"
                        )
        if self.schedule and self.schedule.profile not in self.profiles:
            raise ValueError(f"schedule.profile: no profile {self.schedule.profile!r}")
        names = [m.name for m in self.metrics]
        if len(set(names)) != len(names):
            raise ValueError("metrics: a metric name is declared twice")
        return self


def _field_errors(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        where = ".".join(str(p) for p in err["loc"])
        msg = str(err["msg"]).removeprefix("Value error, ")
        parts.append(f"{where}: {msg}" if where else msg)
    return "; ".join(parts)


def parse(text: str, where: str) -> ProjectManifest:
    """Read a benchdash.toml's text (`where` names it in errors)."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProjectManifestError(f"{where}: not TOML: {exc}") from None
    try:
        return ProjectManifest.model_validate(raw)
    except ValidationError as exc:
        raise ProjectManifestError(f"{where}: {_field_errors(exc)}") from None


def load(path: Path) -> ProjectManifest:
    """Read and check the benchdash.toml at `path`."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ProjectManifestError(f"{path}: no {FILENAME} there") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ProjectManifestError(f"{path}: cannot read it: {exc}") from None
    return parse(text, str(path))


def argv(command: str | list[str]) -> list[str]:
    """A command as an argv: a string runs in `sh -c`."""
    return ["sh", "-c", command] if isinstance(command, str) else list(command)


def registration(manifest: ProjectManifest, system: str) -> dict[str, Any]:
    """The body an agent registers (PUT /api/v1/systems/{system}/manifest)."""
    if manifest.system is not None and manifest.system != system:
        raise ProjectManifestError(
            f"system: the manifest is for {manifest.system!r}, this agent for {system!r}"
        )
    raw = manifest.model_dump(mode="json", exclude_none=True)
    raw.update(system=system, name=manifest.name or system)
    raw["driver"] = {"manifest": FILENAME, **raw["driver"]}
    return raw
