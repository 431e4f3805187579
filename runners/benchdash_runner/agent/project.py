"""Which manifest an agent follows: `runners/<system>/runner.toml` of its own repository when
there is one (the five systems; an operator's override), else the `benchdash.toml` at the root
of the system's source.

A project's agent registers the manifest of its default branch's head at its start; each run
then follows the benchdash.toml of the commit it checked out (its commands, profiles and time
limits), so a commit that changes how it is benchmarked is run its own way. Its commands run
the generic driver (`benchdash_runner.project_driver`) unless the manifest names a driver
script (`[driver] command`, run from the repository root like the five systems' drivers).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from benchdash_runner import projectfile
from benchdash_runner.agent.api import AgentApi, ApiError
from benchdash_runner.agent.manifest import Manifest, ManifestError, load
from benchdash_runner.agent.source import SourceError, mirror, resolve
from benchdash_runner.childenv import child_env
from benchdash_runner.projectfile import FILENAME, ProjectManifest, ProjectManifestError


def to_manifest(parsed: ProjectManifest, system: str) -> Manifest:
    """What the agent acts on, from a checked benchdash.toml."""
    try:
        raw = projectfile.registration(parsed, system)
    except ProjectManifestError as exc:
        raise ManifestError(f"{FILENAME}: {exc}") from None
    command = parsed.driver.command or [
        *(sys.executable, "-m", "benchdash_runner.project_driver"),
        *("--manifest", FILENAME, "--system", system),
    ]
    schedule = parsed.schedule
    return Manifest(
        system=system,
        command=list(command),
        profiles=raw["profiles"],
        cron=schedule.cron if schedule else None,
        cron_profile=schedule.profile if schedule else "quick",
        raw=raw,
        pass_env=tuple(parsed.driver.pass_env),
        project=True,
    )


def for_checkout(tree: Path, system: str, sha: str | None) -> Manifest:
    """The manifest of a checked-out commit; ManifestError names the field to fix."""
    where = f"{FILENAME} at {sha[:12] if sha else tree}"
    if not (tree / FILENAME).is_file():
        raise ManifestError(f"{where}: the commit has no {FILENAME} at its root")
    try:
        return to_manifest(projectfile.parse((tree / FILENAME).read_text(), where), system)
    except ProjectManifestError as exc:
        raise ManifestError(str(exc)) from None


def at_start(
    api: AgentApi, repo: Path, system: str, workdir: Path, source_url: str | None = None
) -> tuple[Manifest, str | None]:
    """The manifest to register and the source URL of a project (None for runner.toml)."""
    if (repo / "runners" / system / "runner.toml").exists():
        return load(repo, system), None
    branch = None
    if source_url is None:
        try:
            found = api.source(system)
        except ApiError as exc:
            raise ManifestError(f"no runners/{system}/runner.toml here; {exc}") from None
        source_url, branch = found.get("source_url"), found.get("default_branch")
    if not source_url:
        raise ManifestError(
            f"no runners/{system}/runner.toml under {repo} and system {system!r} has no source: "
            f"set it (PUT /api/v1/systems/{system}/source) or pass --source URL"
        )
    branch = branch or "main"
    try:
        sha = resolve(mirror(source_url, workdir), branch)
    except SourceError as exc:
        raise ManifestError(f"{source_url}: {exc}") from None
    shown = subprocess.run(
        ["git", "-C", str(workdir / "mirror.git"), "show", f"{sha}:{FILENAME}"],
        capture_output=True,
        text=True,
        check=False,
        env=child_env(),
    )
    where = f"{source_url} {branch} ({sha[:12]}): {FILENAME}"
    if shown.returncode != 0:
        raise ManifestError(f"{where}: not found at the root of the repository")
    try:
        return to_manifest(projectfile.parse(shown.stdout, where), system), source_url
    except ProjectManifestError as exc:
        raise ManifestError(str(exc)) from None
