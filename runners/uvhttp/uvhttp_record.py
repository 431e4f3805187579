"""Seed records (standard §6.2), their validation (§5.6, §6.3) and the benchdash/v1 results.

Each wrk run of each server becomes one seed record; the driver keeps them in OUT/records/
and converts them here: one result per (server, scenario), every repetition a sample, the
metric value the mean after IQR outlier removal (the seed's rule), plus the same-run ratios
to nginx. Standard library only.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Iterable
from typing import Any

HIGHER, LOWER = "higher_is_better", "lower_is_better"
REFERENCE = "nginx_reference"
# document metric -> (unit, direction, record block, record key)
METRICS: dict[str, tuple[str, str, str, str]] = {
    "requests_per_second": ("req/s", HIGHER, "results", "requests_per_second"),
    "latency_avg_ms": ("ms", LOWER, "results", "latency_avg_ms"),
    "latency_p50_ms": ("ms", LOWER, "results", "latency_p50_ms"),
    "latency_p95_ms": ("ms", LOWER, "results", "latency_p95_ms"),
    "latency_p99_ms": ("ms", LOWER, "results", "latency_p99_ms"),
    "latency_p999_ms": ("ms", LOWER, "results", "latency_p999_ms"),
    "transfer_mib_per_second": ("MiB/s", HIGHER, "results", "transfer_rate_mbps"),
    "socket_errors": ("count", LOWER, "results", "socket_errors"),
    "cpu_percent": ("%", LOWER, "resources", "cpu_usage_percent"),
    "memory_rss_mib": ("MiB", LOWER, "resources", "memory_usage_mb"),
    "voluntary_ctx_switches_per_second": (
        "switches/s",
        LOWER,
        "resources",
        "voluntary_context_switches_per_sec",
    ),
    "involuntary_ctx_switches_per_second": (
        "switches/s",
        LOWER,
        "resources",
        "involuntary_context_switches_per_sec",
    ),
    "rw_syscalls_per_second": ("calls/s", LOWER, "resources", "system_calls_per_sec"),
}
EFFICIENCY = ("requests_per_cpu_second", "req/CPU-s", HIGHER)
RATIOS = {
    "nginx_rps_ratio": ("x", HIGHER),
    "nginx_cpu_efficiency_ratio": ("x", HIGHER),
}
PLAUSIBLE_RPS = (1_000.0, 100_000.0)  # §6.3


def record(
    *,
    test_id: str,
    timestamp: str,
    server: str,
    scenario: dict[str, Any],
    results: dict[str, float],
    resources: dict[str, float],
    environment: dict[str, Any],
    configuration: dict[str, Any],
) -> dict[str, Any]:
    """One seed record (§6.2 keys, plus `server`: uvhttp or nginx)."""
    return {
        "test_id": test_id,
        "timestamp": timestamp,
        "server": server,
        "environment": environment,
        "configuration": configuration,
        "test_scenario": scenario,
        "results": results,
        "resources": resources,
    }


def efficiency(rec: dict[str, Any]) -> float | None:
    """Requests per second of server CPU (None when the CPU time was below one tick)."""
    cpu = rec["resources"].get("cpu_seconds", 0.0)
    return rec["results"]["total_requests"] / cpu if cpu > 0 else None


def iqr_filtered(samples: list[float]) -> list[float]:
    """The samples inside [Q1 - 1.5 IQR, Q3 + 1.5 IQR] (all of them below 4 samples)."""
    if len(samples) < 4:
        return list(samples)
    q1, _, q3 = statistics.quantiles(samples, n=4, method="inclusive")
    lo, hi = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)
    return [s for s in samples if lo <= s <= hi]


def _metric(name: str, unit: str, direction: str, samples: list[float]) -> dict[str, Any]:
    kept = iqr_filtered(samples)
    return {
        "name": name,
        "unit": unit,
        "direction": direction,
        "value": statistics.fmean(kept),
        "samples": samples,
    }


def _by_scenario(records: Iterable[dict[str, Any]]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    out: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for rec in records:
        key = (rec["server"], rec["test_scenario"]["name"])
        out.setdefault(key, []).append(rec)
    for recs in out.values():
        recs.sort(key=lambda r: int(r["test_scenario"]["repetition"]))
    return out


def _metrics(recs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    metrics = []
    for name, (unit, direction, block, key) in METRICS.items():
        samples = [float(r[block][key]) for r in recs if key in r[block]]
        if samples:
            metrics.append(_metric(name, unit, direction, samples))
    eff = [e for e in map(efficiency, recs) if e is not None]
    if eff:
        metrics.append(_metric(*EFFICIENCY, eff))
    return metrics


def _ratios(ours: list[dict[str, Any]], ref: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per repetition: ours over nginx's (the same repetition ran both, back to back)."""
    ref_by_rep = {r["test_scenario"]["repetition"]: r for r in ref}
    rps, eff = [], []
    for rec in ours:
        other = ref_by_rep.get(rec["test_scenario"]["repetition"])
        if other is None or other["results"]["requests_per_second"] <= 0:
            continue
        rps.append(rec["results"]["requests_per_second"] / other["results"]["requests_per_second"])
        mine, theirs = efficiency(rec), efficiency(other)
        if mine is not None and theirs is not None:
            eff.append(mine / theirs)
    out = []
    if rps:
        out.append(_metric("nginx_rps_ratio", *RATIOS["nginx_rps_ratio"], rps))
    if eff:
        out.append(
            _metric("nginx_cpu_efficiency_ratio", *RATIOS["nginx_cpu_efficiency_ratio"], eff)
        )
    return out


def to_results(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """benchdash/v1 results from seed records (uvhttp scenarios, then nginx references)."""
    groups = _by_scenario(records)
    results = []
    for (server, _name), recs in groups.items():
        if server != "uvhttp":
            continue
        scen = recs[0]["test_scenario"]
        metrics = _metrics(recs)
        ref = groups.get(("nginx", scen["name"]))
        if ref:
            metrics += _ratios(recs, ref)
        results.append(
            {"benchmark": scen["benchmark"], "parameters": scen["parameters"], "metrics": metrics}
        )
    for (server, _name), recs in groups.items():
        if server == "nginx":
            params = {
                "scenario": recs[0]["test_scenario"]["benchmark"],
                **recs[0]["test_scenario"]["parameters"],
            }
            results.append(
                {"benchmark": REFERENCE, "parameters": params, "metrics": _metrics(recs)}
            )
    return results


def validate(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The seed's checks per (server, scenario) on req/s: cv < 10 %, IQR and 3 sigma outliers,
    plausible range; and per server, latency growing with concurrency (§6.3)."""
    checks: list[dict[str, Any]] = []
    for (server, name), recs in _by_scenario(records).items():
        rps = [float(r["results"]["requests_per_second"]) for r in recs]
        mean = statistics.fmean(rps)
        sd = statistics.stdev(rps) if len(rps) > 1 else 0.0
        cv = 100 * sd / mean if mean > 0 else math.inf
        checks.append(
            {
                "server": server,
                "scenario": name,
                "n": len(rps),
                "mean_rps": mean,
                "cv_pct": cv,
                "cv_ok": cv < 10,
                "iqr_outliers": len(rps) - len(iqr_filtered(rps)),
                "sigma3_outliers": sum(1 for x in rps if sd > 0 and abs(x - mean) > 3 * sd),
                "plausible": PLAUSIBLE_RPS[0] <= mean <= PLAUSIBLE_RPS[1],
            }
        )
    for server in sorted({str(c["server"]) for c in checks}):
        groups = _by_scenario(r for r in records if r["server"] == server)
        p50: dict[str, float] = {}
        for basic in ("low_concurrency", "medium_concurrency", "high_concurrency"):
            found = groups.get((server, basic))
            if found:
                p50[basic] = statistics.median(r["results"]["latency_p50_ms"] for r in found)
        if len(p50) > 1:
            ordered = list(p50.values())
            rising = all(a <= b for a, b in itertools.pairwise(ordered))
            checks.append(
                {"server": server, "scenario": "latency_trend", "p50_ms": p50, "ok": rising}
            )
    return checks


def describe(check: dict[str, Any]) -> str:
    """One log line for a validation check."""
    who = f"{check['server']} {check['scenario']}"
    if check["scenario"] == "latency_trend":
        trend = " <= ".join(f"{v:.3g}" for v in check["p50_ms"].values())
        verdict = "ok" if check["ok"] else "NOT rising"
        return f"validation {who}: p50 by concurrency {trend} ms: {verdict}"
    parts = [
        f"cv {check['cv_pct']:.1f} % ({'ok' if check['cv_ok'] else 'over 10 %'})",
        f"IQR outliers {check['iqr_outliers']}",
        f"3-sigma outliers {check['sigma3_outliers']}",
        "plausible" if check["plausible"] else "outside 1,000-100,000 req/s",
    ]
    head = f"validation {who}: n={check['n']}, mean {check['mean_rps']:.0f} req/s"
    return ", ".join([head, *parts])
