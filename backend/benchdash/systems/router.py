"""Systems: cards, detail, metric thresholds, pinned baselines."""

from __future__ import annotations

from fastapi import APIRouter

from benchdash.auth import service as auth_service
from benchdash.deps import OptionalPrincipal, ReadAccess, SessionDep
from benchdash.kit.responses import ERRORS
from benchdash.kit.errors import InvalidInput
from benchdash.systems import manifest
from benchdash.systems import read as system_read
from benchdash.systems import service as system_service
from benchdash.systems.manifest import Manifest
from benchdash.systems.schemas import (
    BaselinePin,
    BranchRead,
    MetricRead,
    MetricUpdate,
    SystemDetail,
    SystemRead,
)

router = APIRouter(prefix="/api/v1/systems", tags=["systems"], responses=ERRORS)


@router.get("", response_model=list[SystemRead], dependencies=[ReadAccess])
def read_systems(session: SessionDep) -> list[SystemRead]:
    """Every system with its latest run, open alerts and headline trend."""
    return system_read.cards(session=session)


@router.get("/{slug}", response_model=SystemDetail, dependencies=[ReadAccess])
def read_system(slug: str, session: SessionDep) -> SystemDetail:
    """One system with its benchmarks, metrics, branches, testbeds and open alerts."""
    return system_read.detail(session=session, slug=slug)


@router.put("/{slug}/manifest", response_model=SystemDetail)
def register_manifest(
    slug: str, body: Manifest, session: SessionDep, principal: OptionalPrincipal
) -> SystemDetail:
    """Register a runner manifest (agents at start-up; token with the upload scope)."""
    auth_service.require(principal, "upload", slug)
    if body.system != slug:
        raise InvalidInput(f"the manifest is for {body.system!r}, not {slug!r}")
    manifest.register(session=session, slug=slug, manifest=body)
    return system_read.detail(session=session, slug=slug)


@router.put("/{slug}/metrics/{metric}", response_model=MetricRead)
def update_metric(
    slug: str, metric: str, body: MetricUpdate, session: SessionDep, principal: OptionalPrincipal
) -> MetricRead:
    """Set a metric's warn and fail thresholds (admin)."""
    auth_service.require(principal, "admin", slug)
    system = system_service.get_by_slug(session=session, slug=slug)
    m = system_service.set_thresholds(
        session=session,
        system=system,
        metric_name=metric,
        warn=body.warn_threshold,
        fail=body.fail_threshold,
    )
    return MetricRead(
        name=m.name,
        unit=m.unit,
        direction=m.direction,
        warn_threshold=m.warn_threshold,
        fail_threshold=m.fail_threshold,
    )


@router.put("/{slug}/branches/{branch}/baseline", response_model=BranchRead)
def pin_baseline(
    slug: str, branch: str, body: BaselinePin, session: SessionDep, principal: OptionalPrincipal
) -> BranchRead:
    """Pin a run as the baseline of a branch, or unpin with null (trigger or admin)."""
    auth_service.require(principal, "trigger", slug)
    return system_read.pin_baseline(session=session, slug=slug, branch=branch, run_id=body.run_id)
