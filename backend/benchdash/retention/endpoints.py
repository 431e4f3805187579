"""Retention: the rules (admin, audited) and the dry run of what they would remove now."""

from __future__ import annotations

from fastapi import APIRouter

from benchdash.auth import service as auth_service
from benchdash.db import utcnow
from benchdash.deps import OptionalPrincipal, ReadSessionDep, SessionDep
from benchdash.kit.errors import Forbidden
from benchdash.kit.responses import ERRORS
from benchdash.retention import plan, rules
from benchdash.retention.schemas import BranchPlan, Preview, RulesIn, RulesRead

router = APIRouter(prefix="/api/v1/retention", tags=["retention"], responses=ERRORS)


def _admin_of_all(principal: auth_service.Principal | None) -> str:
    who = auth_service.require(principal, "admin")
    if who.systems:
        raise Forbidden(
            "retention rules cover every system: this needs an admin credential for all "
            f"systems, not one for {', '.join(sorted(who.systems))} only"
        )
    return who.name


@router.get("/rules", response_model=RulesRead)
def get_rules(session: ReadSessionDep, principal: OptionalPrincipal) -> RulesRead:
    """The retention rules in the order they are tried, and who set them last (admin)."""
    _admin_of_all(principal)
    return rules.read(session)


@router.put("/rules", response_model=RulesRead)
def put_rules(body: RulesIn, session: SessionDep, principal: OptionalPrincipal) -> RulesRead:
    """Replace the retention rules (admin, audited): the first whose system and branch glob
    match a run decides it; no rule keeps everything. A bad pattern or age is 422, nothing
    changed."""
    by = _admin_of_all(principal)
    return rules.replace(session=session, rules=body.rules, by=by)


@router.get("/preview", response_model=Preview)
def preview(session: ReadSessionDep, principal: OptionalPrincipal) -> Preview:
    """The dry run (admin): per system and branch, the runs and measurements the rules would
    delete now, those whose raw samples they would summarise, and the runs kept because an open
    alert, a bisection, a pinned baseline or an accepted change names them."""
    _admin_of_all(principal)
    work = plan.make(session=session, now=utcnow())
    branches = [
        BranchPlan(
            system=b.system,
            branch=b.branch,
            rule=b.rule,
            runs=b.runs,
            delete_runs=len(b.delete),
            delete_measurements=b.delete_measurements,
            summarise_runs=len(b.summarise),
            summarise_measurements=b.summarise_measurements,
            kept_runs=sorted(b.kept),
        )
        for b in work.branches
    ]
    return Preview(
        at=work.at,
        branches=branches,
        delete_runs=sum(b.delete_runs for b in branches),
        delete_measurements=sum(b.delete_measurements for b in branches),
        summarise_runs=sum(b.summarise_runs for b in branches),
        summarise_measurements=sum(b.summarise_measurements for b in branches),
        kept_runs=sum(len(b.kept_runs) for b in branches),
    )
