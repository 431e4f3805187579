"""The uvhttp benchmark's scenarios and wrk runs (seed standard §5.4, §6.1), and the nginx
reference's configuration.

The reference is nginx-light as a child of the driver: one process (`master_process off`,
one worker's work), `return 200 "OK"`, no access log, its prefix, config, logs and temp
folders all under OUT/nginx (nothing under / is read or written), on a free port.
Standard library only: the driver imports this module beside it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPORT_PREFIX = "##uvhttp-wrk "
POST_BODY = '{"test":"data"}'
MAX_REQUESTS = 1000  # per keep-alive connection, for both servers (nginx's default)
NGINX_CONF = """daemon off;
master_process off;
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/logs/error.log warn;
events {{ worker_connections 2048; }}
http {{
    access_log off;
    keepalive_requests {max_requests};
    keepalive_timeout 60s;
    client_body_temp_path {prefix}/tmp/body;
    proxy_temp_path {prefix}/tmp/proxy;
    fastcgi_temp_path {prefix}/tmp/fastcgi;
    uwsgi_temp_path {prefix}/tmp/uwsgi;
    scgi_temp_path {prefix}/tmp/scgi;
    server {{
        listen 127.0.0.1:{port};
        location / {{ default_type text/plain; return 200 "OK"; }}
    }}
}}
"""


@dataclass(frozen=True)
class Scenario:
    """One wrk workload: its manifest name, the document's benchmark and the request."""

    name: str
    benchmark: str
    threads: int
    connections: int
    path: str = "/"
    method: str = "GET"
    body: bool = False
    expect_errors: bool = False  # every response is 4xx/5xx by design (the error scenarios)
    reference: bool = False  # nginx serves the same request: run it alongside
    basic: bool = False  # the seed's basic scenarios (more repetitions than extended ones)

    def parameters(self, duration_s: float) -> dict[str, Any]:
        """The document's parameters (the demo's keys for the basic scenarios)."""
        params: dict[str, Any] = {
            "threads": self.threads,
            "connections": self.connections,
            "duration_s": duration_s,
        }
        if self.benchmark in ("response_size", "method", "error"):
            params["path"] = self.path
        if self.benchmark == "method":
            params["method"] = self.method
        return params

    def record_block(self, duration_s: float, url: str, repetition: int) -> dict[str, Any]:
        """The seed record's `test_scenario` block of one run of this scenario."""
        return {
            "name": self.name,
            "benchmark": self.benchmark,
            "parameters": self.parameters(duration_s),
            "threads": self.threads,
            "connections": self.connections,
            "duration": duration_s,
            "method": self.method,
            "url": url,
            "repetition": repetition,
        }


def _scenarios() -> dict[str, Scenario]:
    out: dict[str, Scenario] = {}
    for name, threads, conns in (
        ("low_concurrency", 2, 10),
        ("medium_concurrency", 4, 50),
        ("high_concurrency", 8, 200),
    ):
        out[name] = Scenario(name, name, threads, conns, reference=True, basic=True)
    for threads in (1, 2, 4, 8, 16):
        name = f"thread_sweep/{threads}"
        out[name] = Scenario(name, "thread_sweep", threads, 50, reference=True)
    for size, path in (("small", "/small"), ("medium", "/medium"), ("large", "/large")):
        out[f"response_size/{size}"] = Scenario(
            f"response_size/{size}", "response_size", 4, 50, path
        )
    out["response_size/1mb"] = Scenario("response_size/1mb", "response_size", 4, 50, "/large/1mb")
    for method, path, body in (
        ("post", "/api", True),
        ("put", "/api/put", True),
        ("patch", "/api/patch", True),
        ("delete", "/api/delete", False),
        ("head", "/api/head", False),
        ("options", "/api/options", False),
    ):
        name = f"method/{method}"
        out[name] = Scenario(name, "method", 4, 50, path, method.upper(), body)
    for kind in ("notfound", "badrequest", "server", "ratelimit"):
        name = f"error/{kind}"
        out[name] = Scenario(name, "error", 4, 50, f"/error/{kind}", expect_errors=True)
    return out


SCENARIOS = _scenarios()


def lua_script(scenario: Scenario, report_lua: str) -> str:
    """The wrk script of a scenario: its method and body, then the report hook."""
    lines = []
    if scenario.method != "GET":
        lines.append(f'wrk.method = "{scenario.method}"')
    if scenario.body:
        lines.append(f"wrk.body = '{POST_BODY}'")
        lines.append('wrk.headers["Content-Type"] = "application/json"')
    return "\n".join([*lines, report_lua])


def wrk_command(scenario: Scenario, duration_s: float, script: Path, url: str) -> list[str]:
    """The wrk command line of one run."""
    return [
        "wrk",
        f"-t{scenario.threads}",
        f"-c{scenario.connections}",
        f"-d{duration_s:g}s",
        "--timeout",
        "10s",
        "-s",
        str(script),
        url,
    ]


def parse_report(output: str) -> dict[str, Any]:
    """The JSON line the report hook printed; ValueError naming what is wrong otherwise."""
    lines = [line for line in output.splitlines() if line.startswith(REPORT_PREFIX)]
    if not lines:
        tail = "\n".join(output.splitlines()[-5:])
        raise ValueError(
            f"wrk printed no {REPORT_PREFIX.strip()} line (not the report hook?):\n{tail}"
        )
    try:
        report: dict[str, Any] = json.loads(lines[-1][len(REPORT_PREFIX) :])
        latency, errors = report["latency_us"], report["errors"]
        for key in ("duration_us", "requests", "bytes"):
            float(report[key])
        for key in ("50", "95", "99", "99.9"):
            float(latency["percentiles"][key])
        float(latency["mean"])
        sum(int(errors[k]) for k in ("connect", "read", "write", "timeout", "status"))
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"unreadable wrk report line: {exc!r}: {lines[-1][:200]}") from None
    if report["duration_us"] <= 0:
        raise ValueError("wrk report: duration is zero")
    return report


def seed_results(report: dict[str, Any]) -> dict[str, float]:
    """The seed record's `results` block (§6.2) from a report line; times in ms."""
    seconds = report["duration_us"] / 1e6
    latency, errors = report["latency_us"], report["errors"]
    pct = latency["percentiles"]
    return {
        "total_requests": report["requests"],
        "requests_per_second": report["requests"] / seconds,
        "latency_avg_ms": latency["mean"] / 1000,
        "latency_p50_ms": pct["50"] / 1000,
        "latency_p95_ms": pct["95"] / 1000,
        "latency_p99_ms": pct["99"] / 1000,
        "latency_p999_ms": pct["99.9"] / 1000,
        "transfer_rate_mbps": report["bytes"] / seconds / 1024**2,
        "socket_errors": sum(errors[k] for k in ("connect", "read", "write", "timeout")),
        "non_2xx_responses": errors["status"],
    }


def check_run(scenario: Scenario, code: int, output: str) -> dict[str, float]:
    """The seed results of one wrk run; ValueError when wrk failed or printed no report, or
    when the responses are not what the scenario expects (all 2xx, or all errors by design)."""
    if code != 0:
        raise ValueError(f"wrk exited {code}: {output[-500:]}")
    results = seed_results(parse_report(output))
    non2xx, total = results["non_2xx_responses"], results["total_requests"]
    if (non2xx != total) if scenario.expect_errors else non2xx > 0:
        raise ValueError(f"{non2xx:.0f} of {total:.0f} responses were 4xx/5xx")
    return results


def rep_line(done: dict[str, dict[str, Any]]) -> str:
    """One repetition's records by server, as a log line (with the uvhttp/nginx ratio)."""

    def rps(rec: dict[str, Any]) -> float:
        return float(rec["results"]["requests_per_second"])

    line = ", ".join(
        f"{server} {rps(r):.0f} req/s (p99 {r['results']['latency_p99_ms']:.2f} ms, "
        f"cpu {r['resources']['cpu_usage_percent']:.0f} %)"
        for server, r in done.items()
    )
    if len(done) == 2:
        line += f" -> uvhttp/nginx {rps(done['uvhttp']) / max(rps(done['nginx']), 1e-9):.3f}"
    return line


def ratio_lines(results: list[dict[str, Any]]) -> list[str]:
    """A log line for every same-run req/s ratio of the results."""
    return [
        f"same-run ratio {r['benchmark']} {r['parameters']}: uvhttp/nginx req/s "
        f"{m['value']:.3f} (repetitions {', '.join(f'{s:.3f}' for s in m['samples'])})"
        for r in results
        for m in r["metrics"]
        if m["name"] == "nginx_rps_ratio"
    ]


def nginx_config(prefix: Path, port: int) -> str:
    """nginx.conf of the reference: everything under `prefix`."""
    return NGINX_CONF.format(prefix=prefix, port=port, max_requests=MAX_REQUESTS)


def nginx_command(prefix: Path, port: int) -> list[str]:
    """Set up the reference under `prefix` (config, logs, temp folders) listening on `port`;
    the command that starts it."""
    for sub in ("logs", "tmp"):
        (prefix / sub).mkdir(parents=True, exist_ok=True)
    (prefix / "nginx.conf").write_text(nginx_config(prefix, port))
    conf, errors = prefix / "nginx.conf", prefix / "logs" / "error.log"
    return ["nginx", "-p", str(prefix), "-c", str(conf), "-e", str(errors)]
