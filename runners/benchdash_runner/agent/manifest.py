"""Reading `runners/<system>/runner.toml` (see runners/CONTRACT.md)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BUILD_TIMEOUT_S = 1800  # a cold first build (fetching and compiling dependencies) takes long


class ManifestError(Exception):
    """The manifest is missing or unusable; the message says what to fix."""


@dataclass(frozen=True)
class Manifest:
    """The parts of a manifest the agent acts on, plus the raw dict it registers."""

    system: str
    command: list[str]
    profiles: dict[str, dict[str, Any]]
    cron: str | None
    cron_profile: str
    raw: dict[str, Any]
    pass_env: tuple[str, ...] = ()  # [driver] pass_env: further variables the driver reads
    project: bool = False  # from the source's benchdash.toml: each run reads its commit's

    def time_limit(self, profile: str) -> float:
        """Seconds a run of `profile` may take before it is timed out."""
        return float(self.profiles[profile].get("time_limit_s", 600))

    def build_limit(self, profile: str) -> float:
        """Seconds the build phase of a run of `profile` may take (apart from `time_limit`)."""
        return float(self.profiles[profile].get("build_timeout_s", BUILD_TIMEOUT_S))


def load(repo: Path, system: str) -> Manifest:
    """Load and check the manifest of `system` under `repo/runners/<system>/runner.toml`."""
    path = repo / "runners" / system / "runner.toml"
    try:
        raw = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise ManifestError(f"{path}: no manifest for system {system!r}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"{path}: {exc}") from None
    if raw.get("system") != system:
        raise ManifestError(f"{path}: 'system' is {raw.get('system')!r}, expected {system!r}")
    command = raw.get("driver", {}).get("command")
    if not isinstance(command, list) or not command or not all(isinstance(c, str) for c in command):
        raise ManifestError(f"{path}: [driver] command must be a non-empty list of strings")
    profiles = raw.get("profiles")
    if not isinstance(profiles, dict) or not profiles:
        raise ManifestError(f"{path}: at least one [profiles.<name>] table is needed")
    for name, profile in profiles.items():
        for key in ("time_limit_s", "build_timeout_s"):
            value = profile.get(key, 1) if isinstance(profile, dict) else None
            if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                raise ManifestError(f"{path}: [profiles.{name}] {key} must be a positive number")
    pass_env = raw["driver"].get("pass_env", [])
    if not isinstance(pass_env, list) or not all(isinstance(n, str) for n in pass_env):
        raise ManifestError(f"{path}: [driver] pass_env must be a list of variable names")
    schedule = raw.get("schedule") or {}
    return Manifest(
        system=system,
        command=command,
        profiles=profiles,
        cron=schedule.get("cron"),
        cron_profile=schedule.get("profile", "quick"),
        raw=raw,
        pass_env=tuple(pass_env),
    )
