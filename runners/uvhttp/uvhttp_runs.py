"""The wrk runs of one `uvhttp` profile: each measured while /proc samples its server, each
leaving a seed record (standard §6.2) in OUT/records/ and wrk's output in OUT/wrk/."""

from __future__ import annotations

import datetime as dt
import json
import os
from typing import Any

import uvhttp_bench as bench
import uvhttp_record as rec

from benchdash_runner import driving, procstat, serverpair
from benchdash_runner.serverpair import CpuSplit, Server


class Runs:
    """The runs of one profile: wrk scripts, measurements, seed records."""

    def __init__(self, drv: driving.Driver, cpus: CpuSplit, meta: dict[str, Any]) -> None:
        self.drv, self.cpus, self.meta = drv, cpus, meta
        seconds = float(drv.profile.get("duration_s", 10))
        self.duration: float = int(seconds) if seconds.is_integer() else seconds
        self.records: list[dict[str, Any]] = []
        self.report_lua = (drv.system_dir / "bench" / "report.lua").read_text()
        for sub in ("lua", "wrk", "records"):
            (drv.out / sub).mkdir(exist_ok=True)

    def wrk(self, scenario: bench.Scenario, seconds: float, url: str) -> list[str]:
        """The pinned wrk command of a run (its script, method prelude + report hook, written
        once)."""
        script = self.drv.out / "lua" / (scenario.name.replace("/", "_") + ".lua")
        if not script.exists():
            script.write_text(bench.lua_script(scenario, self.report_lua))
        return self.cpus.client(bench.wrk_command(scenario, seconds, script, url))

    def measure(self, server: Server, scenario: bench.Scenario, rep: int) -> dict[str, Any]:
        """One wrk run against one server while /proc samples it; its seed record."""
        url, where = server.url + scenario.path, f"{scenario.name} ({server.name}, rep {rep})"
        cmd = self.wrk(scenario, self.duration, url)
        try:
            run = serverpair.run_client(self.drv, cmd=cmd, sample=server)
            stem = f"{scenario.name.replace('/', '_')}_{server.name}_{rep}"
            (self.drv.out / "wrk" / f"{stem}.txt").write_text(run.output + "\n")
            results = bench.check_run(scenario, run.code, run.output)
        except (serverpair.ServerGone, ValueError) as exc:
            self.drv.fail(f"{where}: {exc}")
        record = rec.record(
            test_id=f"PERF-{dt.datetime.now(dt.UTC):%Y-%m-%d}-{len(self.records) + 1:03d}",
            timestamp=driving.now_iso(),
            server=server.name,
            scenario=scenario.record_block(self.duration, url, rep),
            results=results,
            resources={**(run.resources or {}), "load_average_1m": os.getloadavg()[0]},
            **self.meta,
        )
        (self.drv.out / "records" / f"{stem}.json").write_text(json.dumps(record, indent=1) + "\n")
        self.records.append(record)
        return record

    def scenario(self, scenario: bench.Scenario, ours: Server, ngx: Server) -> None:
        """Every repetition of a scenario; with nginx, the two servers take turns going first."""
        key = "repetitions" if scenario.basic else "repetitions_extended"
        reps = int(self.drv.profile.get(key, 3))
        for rep in range(1, reps + 1):
            order = serverpair.alternate(
                [ours, ngx] if scenario.reference else [ours], round_no=rep - 1
            )
            line = bench.rep_line({s.name: self.measure(s, scenario, rep) for s in order})
            driving.log(f"{scenario.name} rep {rep}/{reps}: {line}{procstat.busy_note()}")
