"""Systems: the overview cards, a system's page, runner manifests, metric thresholds and
branch baselines."""

from __future__ import annotations

from fastapi import APIRouter

from benchdash.auth import service as auth_service
from benchdash.deps import OptionalPrincipal, ReadAccess, ReadSessionDep, SessionDep
from benchdash.kit.errors import InvalidInput
from benchdash.kit.responses import ERRORS
from benchdash.kit.validation import NamePath, SlugPath
from benchdash.runs import service as run_service
from benchdash.systems import admin, bounds, manifest, queries, source
from benchdash.systems import service as system_service
from benchdash.systems.manifest import Manifest
from benchdash.systems.read_models import SystemDetail, SystemRead
from benchdash.systems.schemas import (
    BaselinePin,
    BranchRead,
    ManifestView,
    MetricAdmin,
    MetricBounds,
    MetricRead,
    MetricUpdate,
    SystemRegistration,
    SystemSettings,
)

router = APIRouter(prefix="/api/v1/systems", tags=["systems"], responses=ERRORS)


@router.get("", response_model=list[SystemRead], dependencies=[ReadAccess])
def read_systems(session: ReadSessionDep) -> list[SystemRead]:
    """Every system with its latest run, open alerts and headline trend."""
    return queries.cards(session=session)


@router.get("/{slug}", response_model=SystemDetail, dependencies=[ReadAccess])
def read_system(slug: SlugPath, session: ReadSessionDep) -> SystemDetail:
    """One system with its benchmarks, metrics, branches, testbeds and open alerts."""
    return queries.detail(session=session, slug=slug)


@router.put("/{slug}/manifest", response_model=SystemRegistration)
def register_manifest(
    slug: SlugPath, body: Manifest, session: SessionDep, principal: OptionalPrincipal
) -> SystemRegistration:
    """Register a runner manifest and its thresholds (runner agents: token with the agent scope)."""
    who = auth_service.require(principal, "agent", slug)
    if body.system != slug:
        raise InvalidInput(f"the manifest is for {body.system!r}, not {slug!r}")
    system, metrics = manifest.register(session=session, slug=slug, manifest=body, by=who.name)
    return SystemRegistration(
        slug=system.slug,
        name=system.name,
        profiles=sorted(body.profiles),
        metrics=[system_service.metric_read(m) for m in metrics],
    )


@router.put("/{slug}/metrics/{metric}", response_model=MetricRead)
def update_metric(
    slug: SlugPath,
    metric: NamePath,
    body: MetricUpdate,
    session: SessionDep,
    principal: OptionalPrincipal,
) -> MetricRead:
    """Set a metric's warn and fail thresholds (admin)."""
    who = auth_service.require(principal, "admin", slug)
    system = system_service.get_by_slug(session=session, slug=slug)
    m = system_service.set_thresholds(
        session=session,
        system=system,
        metric_name=metric,
        warn=body.warn_threshold,
        fail=body.fail_threshold,
        by=who.name,
    )
    return system_service.metric_read(m)


@router.put("/{slug}/metrics/{metric}/bounds", response_model=MetricAdmin)
def update_metric_bounds(
    slug: SlugPath,
    metric: NamePath,
    body: MetricBounds,
    session: SessionDep,
    principal: OptionalPrincipal,
) -> MetricAdmin:
    """Set the range a metric's uploaded values must lie in (admin, audited); null: unbounded."""
    who = auth_service.require(principal, "admin", slug)
    system = system_service.get_by_slug(session=session, slug=slug)
    bounds.set_declared(
        session=session,
        system=system,
        metric_name=metric,
        low=body.min_value,
        high=body.max_value,
        by=who.name,
    )
    return next(m for m in admin.metrics(session=session, slug=slug) if m.name == metric)


@router.put("/{slug}/branches/{branch}/baseline", response_model=BranchRead)
def pin_baseline(
    slug: SlugPath,
    branch: NamePath,
    body: BaselinePin,
    session: SessionDep,
    principal: OptionalPrincipal,
) -> BranchRead:
    """Pin a run as the baseline of a branch, or unpin with null (trigger or admin)."""
    auth_service.require(principal, "trigger", slug)
    return run_service.pin_baseline(session=session, slug=slug, branch=branch, run_id=body.run_id)


@router.get("/{slug}/manifest", response_model=ManifestView)
def read_manifest(
    slug: SlugPath, session: SessionDep, principal: OptionalPrincipal
) -> ManifestView:
    """The manifest its runner registered (read-only) and the system's settings (admin)."""
    auth_service.require(principal, "admin", slug)
    system = system_service.get_by_slug(session=session, slug=slug)
    return ManifestView(slug=system.slug, manifest=system.manifest, repository=system.repository)


@router.get("/{slug}/metrics", response_model=list[MetricAdmin])
def read_metrics(
    slug: SlugPath, session: SessionDep, principal: OptionalPrincipal
) -> list[MetricAdmin]:
    """Every metric with thresholds, value range and who changed them last, when (admin)."""
    auth_service.require(principal, "admin", slug)
    return admin.metrics(session=session, slug=slug)


@router.put("/{slug}/settings", response_model=SystemSettings)
def update_settings(
    slug: SlugPath, body: SystemSettings, session: SessionDep, principal: OptionalPrincipal
) -> SystemSettings:
    """Set the system's repository URL, so alerts link their commit range (admin, audited)."""
    who = auth_service.require(principal, "admin", slug)
    system = system_service.get_by_slug(session=session, slug=slug)
    admin.set_repository(session=session, system=system, repository=body.repository, by=who.name)
    return SystemSettings(repository=system.repository)


@router.get("/{slug}/source", response_model=source.SourceView)
def read_source(
    slug: SlugPath, session: SessionDep, principal: OptionalPrincipal
) -> source.SourceView:
    """The system's git source and followed branches; the webhook secret only as set (admin;
    or the system's agents, which clone it and read a project's benchdash.toml from it)."""
    if principal is None or not principal.may("agent", slug):
        auth_service.require(principal, "admin", slug)
    return source.view(system_service.get_by_slug(session=session, slug=slug))


@router.put("/{slug}/source", response_model=source.SourceView)
def update_source(
    slug: SlugPath, body: source.SourceUpdate, session: SessionDep, principal: OptionalPrincipal
) -> source.SourceView:
    """Set the git URL agents clone, the branches whose pushes queue runs and the webhook
    secret (admin, audited; the secret is never returned). A new slug is a new system: its
    agents then register the benchdash.toml of its repository."""
    who = auth_service.require(principal, "admin", slug)
    system = system_service.ensure_system(session=session, slug=slug)
    return source.set_source(session=session, system=system, body=body, by=who.name)
