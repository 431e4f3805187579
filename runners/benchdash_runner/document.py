"""Build and check `benchdash/v1` result documents (see shared/DESIGN.md).

The server validates again; checking here lets a CI job fail with a message that names the
field before anything is sent.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

from benchdash_runner.profiles import problem as profile_problem
from benchdash_runner.sampling import TooLarge, fit, spread

SCHEMA = "benchdash/v1"
DIRECTIONS = ("higher_is_better", "lower_is_better")
TRIGGERS = ("ci", "manual", "schedule", "web", "rerun", "bisect", "demo", "push")
RUN_STRING_FIELDS = (
    "external_id",
    "commit",
    "branch",
    "base_branch",
    "version",
    "trigger",
    "profile",
    "started_at",
    "finished_at",
    "testbed",
)
_FIELDS = {
    "$": {"schema", "system", "run", "environment", "configuration", "results"},
    "run": {"id", "historical", *RUN_STRING_FIELDS},
    "result": {"benchmark", "parameters", "metrics", "profile"},
    "metric": {"name", "unit", "direction", "value", "samples"},
}
_SLUG = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,63}$")
_METRIC_NAME = re.compile(r"^[A-Za-z0-9_.%/-]{1,120}$")
# The server's limits (backend ingest model); checked here so nothing partial is sent.
MAX_RESULTS, MAX_METRICS, MAX_SAMPLES = 5000, 200, 100_000
MAX_BENCHMARK_LEN, MAX_UNIT_LEN = 300, 40
# The server's body limit (5 MiB by default) applies to the decompressed document.
MAX_BODY_BYTES = 5 << 20
log = logging.getLogger("benchdash_runner")


class DocumentError(ValueError):
    """A document that the server would reject; `field` is a path like `results[2].metrics[0]`."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


def now_iso() -> str:
    """The current UTC time in RFC 3339 with a Z suffix, to the millisecond (runs started within
    one second, e.g. an upload and a triggered run, keep their order in a series' history)."""
    now = dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds")
    return now.replace("+00:00", "Z")


def metric(
    name: str,
    unit: str,
    direction: str,
    *,
    value: float | None = None,
    samples: Iterable[float] | None = None,
) -> dict[str, Any]:
    """Return one `metrics` entry; `value` or `samples` (or both) must be given."""
    entry: dict[str, Any] = {"name": name, "unit": unit, "direction": direction}
    if value is not None:
        entry["value"] = value
    if samples is not None:
        entry["samples"] = spread(list(samples))
    return entry


def build(
    *,
    system: str,
    results: list[dict[str, Any]],
    run: Mapping[str, Any] | None = None,
    environment: Mapping[str, Any] | None = None,
    configuration: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Assemble and validate a document; summarise the largest sample lists if over the limit.

    Unset (None) run and environment fields are dropped. A document that serialises to more
    than MAX_BODY_BYTES keeps fewer samples per metric (see `sampling.fit`).
    """
    doc: dict[str, Any] = {"schema": SCHEMA, "system": system}
    doc["run"] = {k: v for k, v in (run or {}).items() if v is not None}
    doc["environment"] = {k: v for k, v in (environment or {}).items() if v is not None}
    if configuration:
        doc["configuration"] = dict(configuration)
    doc["results"] = results
    validate(doc)
    try:
        notes = fit(doc, MAX_BODY_BYTES)
    except TooLarge as exc:
        raise DocumentError("$", str(exc)) from None
    for note in notes:
        log.warning("benchdash: %s", note)
    return doc


def validate(doc: Any) -> dict[str, Any]:
    """Return `doc` if it is a valid `benchdash/v1` document, else raise DocumentError."""
    if not isinstance(doc, dict):
        raise DocumentError("$", "a document must be a JSON object")
    _no_unknown(doc, "$", "")
    if doc.get("schema") != SCHEMA:
        raise DocumentError("schema", f"must be {SCHEMA!r}, got {doc.get('schema')!r}")
    system = doc.get("system")
    if not isinstance(system, str) or not _SLUG.match(system):
        raise DocumentError("system", f"must be a lower-case slug, got {system!r}")
    run = doc.get("run", {})
    if not isinstance(run, dict):
        raise DocumentError("run", "must be an object")
    _no_unknown(run, "run", "run.")
    if run.get("id") is not None and (
        isinstance(run["id"], bool) or not isinstance(run["id"], int)
    ):
        raise DocumentError("run.id", f"must be an integer run id, got {run['id']!r}")
    if "historical" in run and not isinstance(run["historical"], bool):
        raise DocumentError("run.historical", f"must be true or false, got {run['historical']!r}")
    for key in RUN_STRING_FIELDS:
        if key in run and run[key] is not None and not isinstance(run[key], str):
            raise DocumentError(f"run.{key}", f"must be a string, got {run[key]!r}")
    if run.get("trigger") is not None and run["trigger"] not in TRIGGERS:
        raise DocumentError("run.trigger", f"{run['trigger']!r}: use one of {', '.join(TRIGGERS)}")
    for block in ("environment", "configuration"):
        if block in doc and not isinstance(doc[block], dict):
            raise DocumentError(block, "must be an object")
    _check_finite(doc.get("configuration", {}), "configuration")
    _check_finite(doc.get("environment", {}), "environment")
    results = doc.get("results")
    if not isinstance(results, list) or not results:
        raise DocumentError("results", "must be a non-empty list (no benchmark results found)")
    if len(results) > MAX_RESULTS:
        raise DocumentError("results", f"{len(results)} benchmarks, more than {MAX_RESULTS}")
    seen: set[tuple[str, str, str]] = set()
    for i, result in enumerate(results):
        _check_result(result, f"results[{i}]", seen)
    return doc


def dumps(doc: Mapping[str, Any]) -> bytes:
    """Serialise a document as compact UTF-8 JSON; NaN and infinities are refused."""
    return json.dumps(doc, allow_nan=False, separators=(",", ":")).encode("utf-8")


def count_measurements(doc: Mapping[str, Any]) -> int:
    """Return how many metric entries a document carries."""
    return sum(len(r.get("metrics", [])) for r in doc.get("results", []))


def _no_unknown(obj: dict[str, Any], kind: str, prefix: str) -> None:
    for key in obj:
        if key not in _FIELDS[kind]:
            allowed = ", ".join(sorted(_FIELDS[kind]))
            raise DocumentError(f"{prefix}{key}", f"unknown field (allowed: {allowed})")


def _check_result(result: Any, where: str, seen: set[tuple[str, str, str]]) -> None:
    if not isinstance(result, dict):
        raise DocumentError(where, "must be an object")
    _no_unknown(result, "result", f"{where}.")
    bench = result.get("benchmark")
    if not isinstance(bench, str) or not bench.strip() or len(bench) > MAX_BENCHMARK_LEN:
        raise DocumentError(
            f"{where}.benchmark", f"must be a non-empty string of at most {MAX_BENCHMARK_LEN}"
        )
    params = result.get("parameters", {})
    if not isinstance(params, dict):
        raise DocumentError(f"{where}.parameters", "must be an object")
    for key, val in params.items():
        if val is not None and not isinstance(val, (str, int, float, bool)):
            raise DocumentError(f"{where}.parameters.{key}", "must be a string, number or bool")
        if isinstance(val, float) and not math.isfinite(val):
            raise DocumentError(f"{where}.parameters.{key}", "must be finite")
    metrics = result.get("metrics")
    if not isinstance(metrics, list) or not metrics or len(metrics) > MAX_METRICS:
        raise DocumentError(f"{where}.metrics", f"must be a list of 1 to {MAX_METRICS} metrics")
    if "profile" in result and (bad := profile_problem(result["profile"])):
        raise DocumentError(f"{where}.profile", bad)
    param_key = json.dumps(params, sort_keys=True, default=str)
    for j, m in enumerate(metrics):
        name = _check_metric(m, f"{where}.metrics[{j}]")
        key = (bench, param_key, name)
        if key in seen:
            raise DocumentError(
                f"{where}.metrics[{j}]",
                f"duplicate metric {name!r} for benchmark {bench!r} with parameters {param_key}",
            )
        seen.add(key)


def _check_metric(m: Any, where: str) -> str:
    if not isinstance(m, dict):
        raise DocumentError(where, "must be an object")
    _no_unknown(m, "metric", f"{where}.")
    name = m.get("name")
    if not isinstance(name, str) or not _METRIC_NAME.match(name):
        raise DocumentError(f"{where}.name", f"{name!r}: use 1-120 letters, digits and _ . % / -")
    unit = m.get("unit")
    if not isinstance(unit, str) or not unit or len(unit) > MAX_UNIT_LEN:
        raise DocumentError(f"{where}.unit", f"must be a string of 1 to {MAX_UNIT_LEN} characters")
    if m.get("direction") not in DIRECTIONS:
        raise DocumentError(
            f"{where}.direction",
            f"unknown direction {m.get('direction')!r}; use one of {', '.join(DIRECTIONS)}",
        )
    has_value = "value" in m and m["value"] is not None
    if has_value:
        _check_number(m["value"], f"{where}.value")
    samples = m.get("samples")
    if samples is not None:
        if not isinstance(samples, list) or not samples or len(samples) > MAX_SAMPLES:
            raise DocumentError(f"{where}.samples", f"must be a list of 1 to {MAX_SAMPLES} numbers")
        for k, s in enumerate(samples):
            _check_number(s, f"{where}.samples[{k}]")
    elif not has_value:
        raise DocumentError(where, f"metric {name!r} has neither value nor samples")
    return name


def _check_number(x: Any, where: str) -> None:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise DocumentError(where, f"must be a number, got {x!r}")
    if not math.isfinite(x):
        raise DocumentError(where, f"must be finite, got {x!r}")


def _check_finite(obj: Any, where: str) -> None:
    if isinstance(obj, float) and not math.isfinite(obj):
        raise DocumentError(where, f"must be finite, got {obj!r}")
    if isinstance(obj, dict):
        for k, v in obj.items():
            _check_finite(v, f"{where}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            _check_finite(v, f"{where}[{i}]")
