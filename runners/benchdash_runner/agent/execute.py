"""Run one job: checkout, the driver under a Supervisor, live reports, upload.

The API hands a run to an agent only while the agent's host runs nothing else (`claim`), so
the host lock is the API's; the agent needs no database.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from benchdash_runner.agent import project
from benchdash_runner.agent.api import AgentApi, ApiError
from benchdash_runner.agent.manifest import Manifest, ManifestError
from benchdash_runner.agent.source import SourceError, checkout, checkout_source, mirror, revlist
from benchdash_runner.agent.supervisor import AgentSettings, Clocks, Supervisor
from benchdash_runner.childenv import child_env

__all__ = ["BUILD_FAILED", "AgentSettings", "execute"]

BUILD_FAILED = 3


def _driver_env(run: dict[str, Any], manifest: Manifest) -> dict[str, str]:
    """The allow-listed environment of the driver: never the agent's token or database URL."""
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    overrides = {
        "PATH": path,
        "BENCHDASH_TRIGGER": str(run.get("trigger") or "web"),
        "BENCHDASH_RUN_ID": str(run["id"]),
        "PYTHONUNBUFFERED": "1",
    }
    return child_env(pass_env=manifest.pass_env, overrides=overrides)


def execute(
    run_id: int,
    *,
    api: AgentApi,
    manifest: Manifest,
    settings: AgentSettings,
    source_url: str | None = None,
) -> str:
    """Carry one run the API handed this agent through to its final state; returns that state.
    With the system's `source_url`, the ref is fetched into the agent's mirror first."""
    run = api.run(run_id)
    if run["status"] != "queued":
        return str(run["status"])
    if run.get("cancel_requested"):
        api.report(run_id, status="cancelled", message="cancelled before it started")
        return "cancelled"
    task = run.get("task") or {}
    if task.get("kind") == "revlist":
        return _revlist(run_id, task, api=api, settings=settings, source_url=source_url)
    return _run(run, api=api, manifest=manifest, settings=settings, source_url=source_url)


def _revlist(
    run_id: int,
    task: dict[str, Any],
    *,
    api: AgentApi,
    settings: AgentSettings,
    source_url: str | None,
) -> str:
    """A bisection's first step: list good..bad from this agent's repository (CONTRACT.md)."""
    good, bad = str(task["good"]), str(task["bad"])
    api.report(
        run_id,
        status="building",
        agent=settings.name,
        lines=[f"agent {settings.name}: listing the commits of {good[:12]}..{bad[:12]}"],
    )
    try:
        repo = settings.repo if source_url is None else mirror(source_url, settings.workdir)
        commits = revlist(repo, good, bad, bool(task.get("first_parent", True)))
    except SourceError as exc:
        api.commits(run_id, {"error": str(exc)})
        return "failed"
    api.report(run_id, lines=[f"{len(commits)} commits in the range"])
    api.commits(run_id, {"commits": commits})
    return "completed"


def _run(
    run: dict[str, Any],
    *,
    api: AgentApi,
    manifest: Manifest,
    settings: AgentSettings,
    source_url: str | None,
) -> str:
    run_id, profile = int(run["id"]), str(run["profile"])
    ref = str(run.get("ref") or "HEAD")
    api.report(
        run_id,
        status="building",
        agent=settings.name,
        lines=[f"agent {settings.name} on host {settings.host_id}: checking out {ref}"],
    )
    try:
        if source_url is None:
            cwd, sha = checkout(settings.repo, ref, settings.workdir / "src")
        else:
            cwd, found = checkout_source(source_url, ref, settings.workdir)
            sha = found
    except SourceError as exc:
        api.report(run_id, status="failed", message=str(exc), lines=[str(exc)])
        return "failed"
    if manifest.project:  # the commit's own benchdash.toml says how it is benchmarked
        try:
            manifest = project.for_checkout(cwd, manifest.system, sha)
            if profile not in manifest.profiles:
                known = ", ".join(sorted(manifest.profiles))
                raise ManifestError(f"benchdash.toml has no profile {profile!r} (has: {known})")
        except ManifestError as exc:
            api.report(run_id, status="failed", message=str(exc), lines=[str(exc)])
            return "failed"
    out = settings.workdir / "out" / f"run-{run_id}"
    out.mkdir(parents=True, exist_ok=True)
    argv = [*manifest.command, "--profile", profile, "--out", str(out)]
    if run.get("requested_benchmarks"):
        argv += ["--benchmarks", ",".join(run["requested_benchmarks"])]
    argv[0] = str(cwd / argv[0]) if not os.path.isabs(argv[0]) and "/" in argv[0] else argv[0]
    clocks = Clocks(build_s=manifest.build_limit(profile), bench_s=manifest.time_limit(profile))
    api.report(run_id, lines=[f"commit {sha or '(source as built)'}; $ {' '.join(argv)}"])
    sup = Supervisor(api, run_id, settings)
    code = sup.run(argv, cwd, _driver_env(run, manifest), clocks)
    if sup.outcome == "cancelled":
        api.report(run_id, status="cancelled", message="cancelled: the benchmark was stopped")
        return "cancelled"
    if sup.outcome == "timed_out":
        api.report(run_id, status="timed_out", message=_timed_out(profile, clocks))
        return "timed_out"
    if code != 0:
        what = "the build failed" if code == BUILD_FAILED else f"the driver exited with code {code}"
        api.report(run_id, status="failed", message=f"{what}; see the log")
        return "failed"
    return _upload(run_id, out / "result.json", sha, api=api)


def _timed_out(profile: str, clocks: Clocks) -> str:
    if clocks.phase == "build":
        return (
            f"the build phase exceeded the {profile} profile's build time limit of "
            f"{clocks.build_s:.0f} s (build_timeout_s)"
        )
    return (
        f"the benchmark phase exceeded the {profile} profile's time limit of {clocks.bench_s:.0f} s"
    )


def _upload(run_id: int, path: Path, sha: str | None, *, api: AgentApi) -> str:
    try:
        document = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        api.report(run_id, status="failed", message=f"no usable result document: {exc}")
        return "failed"
    api.report(run_id, status="uploading")
    document.setdefault("run", {})
    document["run"]["id"] = run_id
    document["run"].setdefault("external_id", f"queued-run-{run_id}")
    if sha:
        document["run"]["commit"] = sha
    try:
        api.upload(document)
    except ApiError as exc:
        current = api.run(run_id)
        if current["status"] in ("completed", "cancelled", "failed", "timed_out"):
            return str(current["status"])
        if current.get("cancel_requested"):
            api.report(run_id, status="cancelled", message="cancelled before the upload")
            return "cancelled"
        api.report(run_id, status="failed", message=f"upload refused: {exc}")
        return "failed"
    return "completed"
