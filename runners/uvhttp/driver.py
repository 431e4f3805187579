#!/usr/bin/env python3
"""Bench driver of `uvhttp`: build performance_test, run the seed's wrk scenarios, emit a document.

    runners/uvhttp/driver.py --profile quick|standard|full --out DIR [--benchmarks a,b] [--no-pin]

Each scenario runs `repetitions` times (the extended ones `repetitions_extended` times); in
every repetition wrk drives performance_test and, for the scenarios nginx can serve (GET /),
also the nginx reference, in alternating order. Both servers share one CPU and wrk gets the
others (taskset) unless --no-pin. Every run leaves a seed record (standard §6.2) in
DIR/records/ and wrk's output in DIR/wrk/; the records are checked (DIR/validation.json) and
converted into DIR/result.json (benchdash/v1).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import uvhttp_bench as bench
import uvhttp_record as rec
import uvhttp_setup as setup

from benchdash_runner import driving, environment

MANIFEST = Path(__file__).with_name("runner.toml")
CMAKE_OPTIONS = ["-DCMAKE_BUILD_TYPE=Release", "-DBUILD_WITH_MIMALLOC=ON", "-DBUILD_WITH_TLS=OFF"]


def _extra(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-pin", action="store_true", help="do not pin servers and wrk to CPUs")


class Bench:
    """The runs of one profile: wrk scripts, measurements, seed records."""

    def __init__(self, drv: driving.Driver, wrk_pin: list[str], meta: dict[str, Any]) -> None:
        self.drv, self.wrk_pin, self.meta = drv, wrk_pin, meta
        seconds = float(drv.profile.get("duration_s", 10))
        self.duration: float = int(seconds) if seconds.is_integer() else seconds
        self.records: list[dict[str, Any]] = []
        self.report_lua = (drv.system_dir / "bench" / "report.lua").read_text()
        for sub in ("lua", "wrk", "records"):
            (drv.out / sub).mkdir(exist_ok=True)

    def script(self, scenario: bench.Scenario) -> Path:
        """The scenario's wrk script (method prelude + report hook), written once."""
        path = self.drv.out / "lua" / (scenario.name.replace("/", "_") + ".lua")
        if not path.exists():
            path.write_text(bench.lua_script(scenario, self.report_lua))
        return path

    def warm_up(self, server: setup.Server, seconds: float) -> None:
        """A short unrecorded run (connections, caches, CPU frequency)."""
        low = bench.SCENARIOS["low_concurrency"]
        script = self.script(low)
        self.drv.run(
            [*self.wrk_pin, *bench.wrk_command(low, seconds, script, server.url + "/")], echo=False
        )

    def measure(self, server: setup.Server, scenario: bench.Scenario, rep: int) -> dict[str, Any]:
        """One wrk run against one server while /proc samples it; its seed record."""
        url = server.url + scenario.path
        cmd = bench.wrk_command(scenario, self.duration, self.script(scenario), url)
        where = f"{scenario.name} ({server.name}, repetition {rep})"
        try:
            with bench.Sampler(server.pid) as sampler:
                code, output = self.drv.run([*self.wrk_pin, *cmd], echo=False)
        except OSError as exc:
            self.drv.fail(f"{server.name} (pid {server.pid}) ended during {where}: {exc}")
        stem = f"{scenario.name.replace('/', '_')}_{server.name}_{rep}"
        (self.drv.out / "wrk" / f"{stem}.txt").write_text(output + "\n")
        if code != 0:
            self.drv.fail(f"wrk exited {code} on {where}: {output[-500:]}")
        try:
            results = bench.summarise(bench.parse_report(output))
        except ValueError as exc:
            self.drv.fail(f"{where}: {exc}")
        non2xx, total = results["non_2xx_responses"], results["total_requests"]
        if (non2xx != total) if scenario.expect_errors else non2xx > 0:
            self.drv.fail(f"{where}: {non2xx:.0f} of {total:.0f} responses were 4xx/5xx")
        scen = {
            "name": scenario.name,
            "benchmark": scenario.benchmark,
            "parameters": scenario.parameters(self.duration),
            "threads": scenario.threads,
            "connections": scenario.connections,
            "duration": self.duration,
            "method": scenario.method,
            "url": url,
            "repetition": rep,
        }
        record = rec.record(
            test_id=f"PERF-{dt.datetime.now(dt.UTC):%Y-%m-%d}-{len(self.records) + 1:03d}",
            timestamp=driving.now_iso(),
            server=server.name,
            scenario=scen,
            results=results,
            resources={**sampler.resources(), "load_average_1m": os.getloadavg()[0]},
            **self.meta,
        )
        (self.drv.out / "records" / f"{stem}.json").write_text(json.dumps(record, indent=1) + "\n")
        self.records.append(record)
        return record

    def scenario(self, scenario: bench.Scenario, ours: setup.Server, ngx: setup.Server) -> None:
        """Every repetition of a scenario; with nginx, the two servers take turns going first."""
        reps = int(
            self.drv.profile.get("repetitions" if scenario.basic else "repetitions_extended", 3)
        )
        for rep in range(1, reps + 1):
            order = [ours, ngx] if scenario.reference else [ours]
            done = {s.name: self.measure(s, scenario, rep) for s in order[:: 1 if rep % 2 else -1]}
            line = ", ".join(_describe(name, r) for name, r in done.items())
            if len(done) == 2:
                ratio = _rps(done["uvhttp"]) / max(_rps(done["nginx"]), 1e-9)
                line += f" -> uvhttp/nginx {ratio:.3f}"
            driving.log(f"{scenario.name} rep {rep}/{reps}: {line}{_busy()}")


def _busy() -> str:
    """A warning when other work loads the machine (the figures are then noisy)."""
    load, cpus = os.getloadavg()[0], os.cpu_count() or 1
    return f" (machine busy: load {load:.1f} on {cpus} CPUs)" if load > 1.5 * cpus else ""


def _rps(record: dict[str, Any]) -> float:
    return float(record["results"]["requests_per_second"])


def _describe(server: str, r: dict[str, Any]) -> str:
    p99, cpu = r["results"]["latency_p99_ms"], r["resources"]["cpu_usage_percent"]
    return f"{server} {_rps(r):.0f} req/s (p99 {p99:.2f} ms, cpu {cpu:.0f} %)"


def report(drv: driving.Driver, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Validate the records (log + validation.json) and convert them to document results."""
    checks = rec.validate(records)
    (drv.out / "validation.json").write_text(json.dumps(checks, indent=1) + "\n")
    for check in checks:
        driving.log(rec.describe(check))
    results = rec.to_results(records)
    for r in results:
        for m in r["metrics"]:
            if m["name"] == "nginx_rps_ratio":
                samples = ", ".join(f"{s:.3f}" for s in m["samples"])
                driving.log(
                    f"same-run ratio {r['benchmark']} {r['parameters']}: uvhttp/nginx req/s "
                    f"{m['value']:.3f} (repetitions {samples})"
                )
    return results


def main() -> int:
    """Build, run the profile's scenarios against uvhttp and nginx, write result.json."""
    drv, args = driving.start(MANIFEST, extra=_extra)
    for tool in ("cmake", "wrk", "nginx"):
        if shutil.which(tool) is None:
            drv.fail(f"{tool} is not installed (see systems/uvhttp/apt-packages.txt)")
    build = drv.out / "build"
    drv.phase("building")
    drv.build(["cmake", "-S", str(drv.system_dir), "-B", str(build), *CMAKE_OPTIONS,
               "-DUVHTTP_BUILD_TESTS=OFF"])  # fmt: skip
    drv.build(["cmake", "--build", str(build), "-j", str(os.cpu_count() or 1),
               "--target", "performance_test"])  # fmt: skip
    cc, cc_version = setup.compiler(build)
    server_pin, wrk_pin, pins = setup.cpu_split(args.no_pin)
    configuration = {
        "build_type": "Release",
        "optimization": "-O3 -flto",
        "build_with_mimalloc": True,
        "build_with_tls": False,
        "build_with_websocket": False,
        "debug": False,
        "nginx": setup.tool_version(drv, ["nginx", "-v"], r"nginx/(\S+)"),
        "wrk": setup.tool_version(drv, ["wrk", "-v"], r"wrk \S*?(\d+\.\d+\.\d+)"),
        "max_requests_per_connection": setup.MAX_REQUESTS,
        **pins,
    }
    meta = {"environment": environment.detect(cc, cc_version), "configuration": configuration}
    runs = Bench(drv, wrk_pin, meta)
    drv.phase("running")
    with setup.servers(drv, build / "performance_test", server_pin) as (ours, ngx):
        warmup = float(drv.profile.get("warmup_s", 1))
        runs.warm_up(ours, warmup)
        runs.warm_up(ngx, warmup)
        for name in drv.scenarios:
            drv.progress(name)
            runs.scenario(bench.SCENARIOS[name], ours, ngx)
    results = report(drv, runs.records)
    cmake = (drv.system_dir / "CMakeLists.txt").read_text()
    version = re.search(r"project\(uvhttp VERSION (\S+)", cmake)
    drv.finish(
        results,
        compiler=cc,
        compiler_version=cc_version,
        configuration=configuration,
        version=version.group(1) if version else None,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
