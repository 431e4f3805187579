#!/usr/bin/env python3
"""Bench driver of `uvhttp`: build performance_test, run the seed's wrk scenarios, emit a document.

    runners/uvhttp/driver.py --profile quick|standard|full --out DIR [--benchmarks a,b] [--no-pin]

Each scenario runs `repetitions` times (the extended ones `repetitions_extended` times); in
every repetition wrk drives performance_test and, for the scenarios nginx can serve (GET /),
also the nginx reference, in alternating order. Both servers share one CPU and wrk gets the
others (taskset, else sched_setaffinity) unless --no-pin. Every run leaves a seed record
(standard §6.2) in DIR/records/ and wrk's output in DIR/wrk/; the records are checked
(DIR/validation.json) and converted into DIR/result.json (benchdash/v1).

A profile with `harness = "callgrind"` (`instructions`) runs performance_test under Valgrind's
Callgrind instead: instructions per request over a fixed number (uvhttp_instructions.py).
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import uvhttp_bench as bench
import uvhttp_instructions
import uvhttp_record as rec
from uvhttp_runs import Runs

from benchdash_runner import driving, environment, serverpair, toolinfo
from benchdash_runner.serverpair import CpuSplit, ServerSpec

MANIFEST = Path(__file__).with_name("runner.toml")
CMAKE_OPTIONS = ["-DCMAKE_BUILD_TYPE=Release", "-DBUILD_WITH_MIMALLOC=ON", "-DBUILD_WITH_TLS=OFF"]
BUILD = {
    "build_type": "Release",
    "optimization": "-O3 -flto",
    "build_with_mimalloc": True,
    "build_with_tls": False,
    "build_with_websocket": False,
    "debug": False,
}
LISTENING = r"listening on http://127\.0\.0\.1:(\d+)"  # performance_test, started on port 0


def _no_pin(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-pin", action="store_true", help="do not pin servers and wrk to CPUs")


def servers(drv: driving.Driver, binary: Path, cpus: CpuSplit) -> list[ServerSpec]:
    """performance_test (on the port it prints) and the nginx reference (on a free port)."""
    ours = [str(binary), "--port", "0", "--max-requests", str(bench.MAX_REQUESTS)]
    port, prefix = serverpair.free_port(), drv.out / "nginx"
    ngx = bench.nginx_command(prefix, port)
    ours_log, ngx_log = drv.out / "performance_test.log", prefix / "logs" / "stdout.log"
    return [
        ServerSpec(name="uvhttp", cmd=cpus.server(ours), log_path=ours_log, port_pattern=LISTENING),
        ServerSpec(name="nginx", cmd=cpus.server(ngx), log_path=ngx_log, port=port),
    ]


def callgrind_profile(drv: driving.Driver, build: Path, cc: str | None, version: str | None) -> int:
    """The `harness = "callgrind"` profile: instructions per request, no wrk or nginx."""
    drv.phase("running")
    results = uvhttp_instructions.run(drv, build / "performance_test")
    configuration = {
        **BUILD,
        "harness": "callgrind",
        "valgrind": toolinfo.version(cmd=["valgrind", "--version"]),
        "max_requests_per_connection": bench.MAX_REQUESTS,
    }
    drv.finish(results, compiler=cc, compiler_version=version, configuration=configuration)
    return 0


def main() -> int:
    """Build, run the profile's scenarios against uvhttp and nginx, write result.json."""
    drv, args = driving.start(MANIFEST, extra=_no_pin)
    instrumented = drv.profile.get("harness") == "callgrind"
    tools = ("cmake", "valgrind") if instrumented else ("cmake", "wrk", "nginx")
    drv.require(*tools, hint="see systems/uvhttp/apt-packages.txt")
    build = drv.out / "build"
    drv.phase("building")
    drv.cmake(build, [*CMAKE_OPTIONS, "-DUVHTTP_BUILD_TESTS=OFF"], target="performance_test")
    cc, cc_version = toolinfo.cmake_c_compiler(build=build)
    if instrumented:
        return callgrind_profile(drv, build, cc, cc_version)
    cpus = serverpair.cpu_split(server_cpus=1, enabled=not args.no_pin)
    pins = {"pinning": cpus.how, "server_cpus": cpus.server_cpus, "wrk_cpus": cpus.client_cpus}
    configuration = {
        **BUILD,
        "nginx": toolinfo.version(cmd=["nginx", "-v"], pattern=r"nginx/(\S+)"),
        "wrk": toolinfo.version(cmd=["wrk", "-v"], pattern=r"wrk \S*?(\d+\.\d+\.\d+)"),
        "max_requests_per_connection": bench.MAX_REQUESTS,
        **(pins if cpus.pinned else {"pinning": "none"}),
    }
    meta = {"environment": environment.detect(cc, cc_version), "configuration": configuration}
    runs = Runs(drv, cpus, meta)
    drv.phase("running")
    try:
        with serverpair.serve(drv, specs=servers(drv, build / "performance_test", cpus)) as up:
            low, warmup = bench.SCENARIOS["low_concurrency"], float(drv.profile.get("warmup_s", 1))
            for server in up.values():  # unrecorded: connections, caches, CPU frequency
                drv.run(runs.wrk(low, warmup, server.url + "/"), echo=False)
            for name in drv.scenarios:
                drv.progress(name)
                runs.scenario(bench.SCENARIOS[name], up["uvhttp"], up["nginx"])
    except serverpair.ServerNotReady as exc:
        drv.fail(str(exc))
    checks = rec.validate(runs.records)
    (drv.out / "validation.json").write_text(json.dumps(checks, indent=1) + "\n")
    results = rec.to_results(runs.records)
    for line in [*map(rec.describe, checks), *bench.ratio_lines(results)]:
        driving.log(line)
    version = re.search(
        r"project\(uvhttp VERSION (\S+)", (drv.system_dir / "CMakeLists.txt").read_text()
    )
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
