"""Turn tool output plus what we know about the run into one `benchdash/v1` document."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchdash_runner import adapters, document, environment, gitinfo
from benchdash_runner.adapters import benchdash as benchdash_format
from benchdash_runner.adapters import detect

GAB_DIRECTIONS = {
    "bigger": "gab-bigger",
    "higher_is_better": "gab-bigger",
    "smaller": "gab-smaller",
    "lower_is_better": "gab-smaller",
}


class InputError(Exception):
    """A problem with what the user asked for (not with a file's content)."""


@dataclass
class RunOptions:
    """What the command line says about the run; None means "find out"."""

    format: str
    paths: list[Path]
    system: str | None = None
    direction: str | None = None
    branch: str | None = None
    base_branch: str | None = None
    commit: str | None = None
    testbed: str | None = None
    external_id: str | None = None
    profile: str | None = None
    trigger: str | None = None
    compiler: str | None = None
    compiler_version: str | None = None
    env: Mapping[str, str] = field(default_factory=lambda: os.environ)


def resolve_format(name: str, direction: str | None) -> str:
    """Map `gab` + a direction to `gab-bigger`/`gab-smaller`; check the name is known."""
    if name == "gab":
        if direction is None:
            raise InputError(
                "--format gab needs a direction: add --direction bigger|smaller "
                "(or use --format gab-bigger / gab-smaller)"
            )
        if direction not in GAB_DIRECTIONS:
            raise InputError(f"unknown --direction {direction!r}; use bigger or smaller")
        return GAB_DIRECTIONS[direction]
    if direction is not None:
        raise InputError("--direction only applies to --format gab")
    if name == "auto":
        return name
    name = adapters.ALIASES.get(name, name)
    if name not in adapters.ADAPTERS:
        raise InputError(f"unknown format {name!r}; known: {', '.join(known_formats())}")
    return name


def known_formats() -> list[str]:
    """The format names the command line accepts."""
    return sorted([*adapters.names(), *adapters.ALIASES, "gab", "auto"])


def build_document(opts: RunOptions) -> dict[str, Any]:
    """Parse the inputs and assemble a validated document (raises AdapterError/DocumentError)."""
    fmt = resolve_format(opts.format, opts.direction)
    for path in opts.paths:
        if not path.exists():
            raise adapters.AdapterError(path, "no such file or directory")
    if fmt == "auto":
        fmt = detect.detect_all(opts.paths)
        shown = ", ".join(str(p) for p in opts.paths)
        print(f"benchdash: --format auto: {shown}: {fmt}", file=sys.stderr)
    base: dict[str, Any] = {}
    if fmt == "benchdash":
        base = benchdash_format.load_document(opts.paths[0])
    results = adapters.parse(fmt, opts.paths)

    system = opts.system or base.get("system")
    if not system:
        raise InputError("--system is required")
    if base and base.get("system") != system:
        raise InputError(
            f"{opts.paths[0]}: document is for system {base.get('system')!r}, not {system!r}"
        )
    run: dict[str, Any] = dict(base.get("run") or {})
    git = gitinfo.detect(env=opts.env)
    run["commit"] = opts.commit or run.get("commit") or git["commit"]
    run["branch"] = opts.branch or run.get("branch") or git["branch"]
    run["base_branch"] = opts.base_branch or run.get("base_branch") or git["base_branch"]
    run["testbed"] = opts.testbed or run.get("testbed") or opts.env.get("BENCHDASH_TESTBED")
    run["profile"] = opts.profile or run.get("profile")
    run["trigger"] = opts.trigger or run.get("trigger") or default_trigger(opts.env)
    run["external_id"] = opts.external_id or run.get("external_id")
    if not run["external_id"] and run.get("id") is None:
        # A document completing a queued run (run.id, from an agent) is keyed by that id.
        run["external_id"] = gitinfo.external_id(
            system=system, paths=opts.paths, commit=run["commit"], env=opts.env
        )
    env = base.get("environment") or environment.detect(opts.compiler, opts.compiler_version)
    return document.build(
        system=system,
        results=results,
        run=run,
        environment=env,
        configuration=base.get("configuration"),
    )


def default_trigger(env: Mapping[str, str]) -> str:
    """`$BENCHDASH_TRIGGER`, else `ci` inside a CI job, else `manual`."""
    return env.get("BENCHDASH_TRIGGER") or ("ci" if gitinfo.in_ci(env) else "manual")
