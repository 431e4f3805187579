"""What every bench driver (`runners/<system>/driver.py`) shares: see runners/CONTRACT.md.

A driver calls `start()` with its manifest, which parses the contract's command line and
selects the scenarios; it then builds with `Driver.build`, runs its tools with `Driver.run` /
`Driver.background` (from `processes.Processes`: children in their own process group, killed
with the driver on every exit path, and by Linux if the driver itself is killed; server/client
pairs: `serverpair`), announces each step with `Driver.progress` and ends with
`Driver.finish(results)`, which checks the results against the manifest and writes a
complete `benchdash/v1` document to `OUT/result.json`.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import shutil
import signal
import time
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from benchdash_runner import document, environment, gitinfo
from benchdash_runner.processes import Processes
from benchdash_runner.processes import log as log  # drivers call driving.log

BUILD_FAILED = 3
now_iso = document.now_iso  # drivers call driving.now_iso


@dataclass(kw_only=True)
class Driver(Processes):
    """One driver invocation: its manifest, profile, selected scenarios and children (the
    processes it starts run in the system's folder unless told otherwise)."""

    manifest: dict[str, Any]
    profile_name: str
    out: Path
    scenarios: list[str]
    root: Path
    started_at: str = field(default_factory=now_iso)
    _step: int = 0

    def __post_init__(self) -> None:
        if self.workdir is None:
            self.workdir = self.system_dir

    @property
    def profile(self) -> dict[str, Any]:
        """The manifest's table of the chosen profile."""
        return dict(self.manifest["profiles"][self.profile_name])

    @property
    def system_dir(self) -> Path:
        """The system's source folder (the manifest's `source`)."""
        return self.root / str(self.manifest["source"])

    @property
    def repetitions(self) -> int:
        """The profile's `repetitions` (1 when the manifest does not say)."""
        return int(self.profile.get("repetitions", 1))

    # -- phases and progress ---------------------------------------------------------------

    def phase(self, name: str) -> None:
        """Announce a phase (`building`, `running`)."""
        log(f"##benchdash phase {name}")

    def progress(self, name: str, total: int | None = None) -> None:
        """Announce that the next step starts; `total` defaults to the number of scenarios."""
        self._step += 1
        log(f"##benchdash progress {self._step}/{total or len(self.scenarios)} {name}")

    # -- children (run, background, stop_all: see benchdash_runner.processes) -----------

    def output(self, cmd: Sequence[str], *, cwd: Path | None = None) -> str | None:
        """The trimmed output of a quick query (`go env GOVERSION`), or None if it fails."""
        code, text = self.run(cmd, cwd=cwd, echo=False)
        return text.strip() or None if code == 0 else None

    def check(self, cmd: Sequence[str], **kwargs: Any) -> str:
        """Run `cmd`; exit the driver with a message naming it when it fails."""
        code, output = self.run(cmd, **kwargs)
        if code != 0:
            self.fail(f"{' '.join(cmd)} failed (exit {code})")
        return output

    # -- build, failure, document ----------------------------------------------------------

    def build(
        self, cmd: Sequence[str], *, cwd: Path | None = None, env: Mapping[str, str] | None = None
    ) -> None:
        """Run one build step; on failure print its log and exit 3 (the contract's code)."""
        t0 = time.monotonic()
        log("$ " + " ".join(cmd))
        code, output = self.run(cmd, cwd=cwd, env=env, echo=False)
        if code != 0:
            log(output)
            log(f"build failed (exit {code})")
            raise SystemExit(BUILD_FAILED)
        log(f"{cmd[0]} took {time.monotonic() - t0:.1f} s")

    def require(self, *tools: str, hint: str) -> None:
        """Exit with a message naming the first of `tools` not on PATH and `hint` (where it
        comes from)."""
        for tool in tools:
            if shutil.which(tool) is None:
                self.fail(f"{tool} is not installed ({hint})")

    def cmake(self, build: Path, options: Sequence[str], *, target: str | None = None) -> None:
        """Configure the system's CMake project in `build` (Ninja when it is installed; a tree
        configured from another checkout is started again) and build `target` (else all) on
        every core, each a build step."""
        cache = build / "CMakeCache.txt"
        if cache.exists() and f"CMAKE_HOME_DIRECTORY:INTERNAL={self.system_dir}" not in (
            cache.read_text()
        ):
            shutil.rmtree(build)
        generator = ["-G", "Ninja"] if shutil.which("ninja") and not cache.exists() else []
        self.build(["cmake", "-S", str(self.system_dir), "-B", str(build), *generator, *options])
        jobs = ["-j", str(os.cpu_count() or 2)]
        self.build(
            ["cmake", "--build", str(build), *jobs, *(["--target", target] if target else [])]
        )

    def fail(self, message: str) -> NoReturn:
        """Exit the driver with `message` (exit 1)."""
        log(f"error: {message}")
        raise SystemExit(1)

    def finish(
        self,
        results: list[dict[str, Any]],
        *,
        compiler: str | None = None,
        compiler_version: str | None = None,
        configuration: Mapping[str, Any] | None = None,
        version: str | None = None,
    ) -> Path:
        """Check `results` against the manifest, write OUT/result.json, announce done."""
        check_against_manifest(results, self.manifest)
        git = gitinfo.detect(self.root)
        run: dict[str, Any] = {
            "commit": os.environ.get("BENCHDASH_COMMIT") or git.get("commit"),
            "branch": os.environ.get("BENCHDASH_BRANCH") or git.get("branch") or "main",
            "version": version,
            "trigger": os.environ.get("BENCHDASH_TRIGGER") or "manual",
            "profile": self.profile_name,
            "started_at": self.started_at,
            "finished_at": now_iso(),
            "external_id": os.environ.get("BENCHDASH_EXTERNAL_ID") or None,
            "testbed": environment.testbed_name(),
        }
        run_id = os.environ.get("BENCHDASH_RUN_ID", "")
        if run_id.isdigit():
            run["id"] = int(run_id)
        doc = document.build(
            system=str(self.manifest["system"]),
            run=run,
            environment=environment.detect(compiler, compiler_version),
            configuration=configuration,
            results=results,
        )
        path = self.out / "result.json"
        path.write_text(json.dumps(doc, indent=1, allow_nan=False) + "\n")
        log(f"wrote {path} ({len(results)} results)")
        n = self._step or len(self.scenarios)
        log(f"##benchdash progress {n}/{n} done")
        return path


def check_against_manifest(results: list[dict[str, Any]], manifest: Mapping[str, Any]) -> None:
    """Raise SystemExit naming the first metric the manifest does not declare identically."""
    declared = {m["name"]: m for m in manifest.get("metrics", [])}
    for result in results:
        for m in result["metrics"]:
            where = f"{result['benchmark']}/{m['name']}"
            spec = declared.get(m["name"])
            if spec is None:
                raise SystemExit(f"error: {where}: metric not declared in runner.toml")
            if (m["unit"], m["direction"]) != (spec["unit"], spec["direction"]):
                raise SystemExit(
                    f"error: {where}: {m['unit']}/{m['direction']} but runner.toml says "
                    f"{spec['unit']}/{spec['direction']}"
                )


def select(scenarios: list[str], wanted: str | None) -> list[str]:
    """The scenarios named by `--benchmarks` (names or `group` prefixes of `group/x`)."""
    if not wanted:
        return scenarios
    names = [w.strip() for w in wanted.split(",") if w.strip()]

    def hit(s: str, n: str) -> bool:
        return s == n or s.startswith(n + "/")

    unknown = [n for n in names if not any(hit(s, n) for s in scenarios)]
    if unknown:
        raise SystemExit(
            f"error: unknown benchmarks: {', '.join(unknown)} (known: {', '.join(scenarios)})"
        )
    return [s for s in scenarios if any(hit(s, n) for n in names)]


def start(
    manifest_path: Path,
    argv: Sequence[str] | None = None,
    extra: Callable[[argparse.ArgumentParser], None] | None = None,
) -> tuple[Driver, argparse.Namespace]:
    """Parse the contract's command line for the driver whose manifest is `manifest_path`."""
    manifest = tomllib.loads(manifest_path.read_text())
    parser = argparse.ArgumentParser(
        prog=f"runners/{manifest['system']}/driver.py",
        description=f"Build {manifest['system']} and run one benchmark profile.",
    )
    parser.add_argument("--profile", required=True, choices=sorted(manifest["profiles"]))
    parser.add_argument("--out", required=True, type=Path, help="folder for result.json")
    parser.add_argument("--benchmarks", help="comma-separated subset of the profile's scenarios")
    if extra is not None:
        extra(parser)
    args = parser.parse_args(argv)
    wanted = select(list(manifest["profiles"][args.profile]["scenarios"]), args.benchmarks)
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    driver = Driver(
        manifest=manifest,
        profile_name=args.profile,
        out=out,
        scenarios=wanted,
        root=manifest_path.resolve().parents[2],
    )
    atexit.register(driver.stop_all)

    def on_signal(signum: int, _frame: object) -> None:
        driver.stop_all()
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    return driver, args
