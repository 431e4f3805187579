"""`benchdash demo`: a realistic history for the UI, stored through the real ingest path."""

from __future__ import annotations

import random
import sys
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from benchdash.demo_data import EVENTS, FEATURE_BRANCH, SYSTEMS
from benchdash.demo_profiles import profile_for
from benchdash.ingest import service as ingest_service
from benchdash.results.schemas import DocumentIn
from benchdash.systems import service as system_service

SAMPLES = 5
RUN_DRIFT = 0.006  # run-to-run drift (fraction)
SAMPLE_NOISE = 0.005  # within-run noise (fraction)
ENV = {
    "os": "Linux 6.1",
    "cpu": "AMD EPYC 7B13 (demo)",
    "cores": 2,
    "memory_mb": 24576,
    "compiler": "gcc",
    "compiler_version": "12.2.0",
}


def _factor(
    slug: str, bench: str, params: dict[str, Any], metric: str, i: int
) -> tuple[float, str | None]:
    """Multiplicative shift of the true value at run i, and the event kind active then."""
    shift, kind = 1.0, None
    for e_slug, e_bench, e_params, e_metric, at, e_kind, size in EVENTS:
        if (e_slug, e_bench, e_params, e_metric) != (slug, bench, params, metric) or i < at:
            continue
        direction = SYSTEMS[slug]
        worse = _is_higher(direction, bench, metric)
        if e_kind == "noisy":
            kind = "noisy" if i == at else None
            if i == at:
                shift = 1 - size if worse else 1 + size
            continue
        shift = 1 - size if worse else 1 + size
        kind = e_kind if i == at else None
    return shift, kind


def _is_higher(system: dict[str, Any], bench: str, metric: str) -> bool:
    for name, _, metrics in system["benchmarks"]:
        if name == bench:
            for m, _, d, _ in metrics:
                if m == metric:
                    return bool(d == "higher_is_better")
    return False


# A `%` unit is 0–100 (systems.bounds): noise never takes a share past 100 %.
def _samples(rng: random.Random, true: float, kind: str | None, unit: str) -> list[float]:
    if kind == "noisy":
        spread = (0.92, 1.0, 1.08)  # few, widely spread samples: a step the gate cannot confirm
        drawn = [true * s for s in spread]
    else:
        drawn = [true * (1 + rng.gauss(0, SAMPLE_NOISE)) for _ in range(SAMPLES)]
    return [min(max(x, 0.0), 100.0) for x in drawn] if unit == "%" else drawn


def _document(slug: str, i: int, branch: str, when: datetime, rng: random.Random) -> DocumentIn:
    system = SYSTEMS[slug]
    drift = 1 + rng.gauss(0, RUN_DRIFT)
    results = []
    sampler = random.Random(f"{slug}-{branch}-{i}")  # profiles leave `rng`'s sequence alone
    for name, params, metrics in system["benchmarks"]:
        out, shifts = [], {}
        for metric, unit, direction, seed in metrics:
            shift, kind = _factor(slug, name, params, metric, i)
            shifts[metric] = (direction, shift)
            true = seed * shift * drift
            out.append(
                {
                    "name": metric,
                    "unit": unit,
                    "direction": direction,
                    "samples": _samples(rng, true, kind, unit),
                }
            )
        entry = {"benchmark": name, "parameters": params, "metrics": out}
        profile = profile_for(slug, name, params, shifts=shifts, rng=sampler)
        if profile is not None:
            entry["profile"] = profile
        results.append(entry)
    commit = f"{rng.getrandbits(40):010x}"
    return DocumentIn.model_validate(
        {
            "schema": "benchdash/v1",
            "system": slug,
            "run": {
                "external_id": f"demo-{slug}-{branch}-{i}",
                "commit": commit,
                "branch": branch,
                "trigger": "demo",
                "profile": "standard",
                "started_at": when.isoformat(),
                "finished_at": (when + timedelta(minutes=9)).isoformat(),
                "testbed": "demo-2c",
            },
            "environment": ENV,
            "configuration": {"demo": True},
            "results": results,
        }
    )


def _register(session: Session, slug: str) -> None:
    system = SYSTEMS[slug]
    row = system_service.ensure_system(
        session=session,
        slug=slug,
        name=system["name"],
        language=system["language"],
        description=system["description"],
        headline_benchmark=system["headline"][0],
        headline_metric=system["headline"][1],
    )
    declared = {m: (u, d) for _, _, ms in system["benchmarks"] for m, u, d, _ in ms}
    metrics = system_service.ensure_metrics(session=session, system_id=row.id, declared=declared)
    for name, (warn, fail) in system.get("thresholds", {}).items():
        metrics[name].warn_threshold, metrics[name].fail_threshold = warn, fail
    session.flush()


def load(*, session: Session, runs: int = 60, seed: int = 7, progress: bool = False) -> int:
    """Store `runs` runs per system on main plus a feature branch; returns runs stored."""
    rng = random.Random(seed)
    start = datetime.now(UTC).replace(microsecond=0) - timedelta(days=runs)
    plan: list[tuple[str, int, str, datetime]] = []
    for slug in SYSTEMS:
        _register(session, slug)
        plan += [(slug, i, "main", start + timedelta(days=i)) for i in range(runs)]
    f_slug, f_branch, fork, count = FEATURE_BRANCH
    plan += [
        (f_slug, fork + k, f_branch, start + timedelta(days=fork + k, hours=6))
        for k in range(min(count, max(runs - fork, 0)))
    ]
    stored = 0
    for n, (slug, i, branch, when) in enumerate(plan, 1):
        answer = ingest_service.store(
            session=session, document=_document(slug, i, branch, when, rng)
        )
        stored += answer.created
        if progress and (n % 10 == 0 or n == len(plan)):
            pct = 100 * n // len(plan)
            bar = "#" * (pct // 4)
            print(
                f"\rdemo [{bar:<25}] {pct:3d}% ({n}/{len(plan)} runs)",
                end="",
                file=sys.stderr,
                flush=True,
            )
    if progress:
        print(file=sys.stderr)
    return stored
