"""The stored rules: read, replaced as a whole (audited), and matched to branches."""

from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatchcase

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from benchdash.audit import service as audit_service
from benchdash.db import utcnow
from benchdash.kit.errors import InvalidInput
from benchdash.retention.models import RetentionRule
from benchdash.retention.schemas import RuleIn, RuleRead, RulesRead
from benchdash.systems.models import System


@dataclass(frozen=True)
class Rule:
    """A rule as matching needs it."""

    position: int
    system_id: int | None
    branch: str
    delete_after_days: int | None
    summarise_after_days: int | None


def stored(session: Session) -> list[Rule]:
    """The rules in the order they are tried."""
    rows = session.scalars(select(RetentionRule).order_by(RetentionRule.position))
    return [
        Rule(r.position, r.system_id, r.branch_pattern, r.delete_after_days, r.summarise_after_days)
        for r in rows
    ]


def deciding(rules: list[Rule], system_id: int, branch: str) -> Rule | None:
    """The first rule that matches this system's branch (None: keep everything)."""
    for rule in rules:
        if rule.system_id in (None, system_id) and fnmatchcase(branch, rule.branch):
            return rule
    return None


def read(session: Session) -> RulesRead:
    """The rules for the API, with who set them last."""
    rows = list(session.scalars(select(RetentionRule).order_by(RetentionRule.position)))
    slugs = dict(session.execute(select(System.id, System.slug)).tuples().all())
    last = max(rows, key=lambda r: r.updated_at, default=None)
    return RulesRead(
        rules=[
            RuleRead(
                position=r.position,
                system=slugs.get(r.system_id) if r.system_id is not None else None,
                branch=r.branch_pattern,
                delete_after_days=r.delete_after_days,
                summarise_after_days=r.summarise_after_days,
            )
            for r in rows
        ],
        updated_by=last.updated_by if last else None,
        updated_at=last.updated_at if last else None,
    )


def replace(*, session: Session, rules: list[RuleIn], by: str) -> RulesRead:
    """Store `rules` in place of the old ones (audited, with both lists); an unknown system is
    422 and changes nothing."""
    ids = dict(session.execute(select(System.slug, System.id)).tuples().all())
    unknown = sorted({r.system for r in rules if r.system is not None and r.system not in ids})
    if unknown:
        raise InvalidInput(
            f"no system {', '.join(map(repr, unknown))}: name a system's slug, or null for every "
            "system"
        )
    before = [r.model_dump(exclude={"position"}) for r in read(session).rules]
    after = [r.model_dump() for r in rules]
    if before == after:  # the same rules again: nothing changes, nothing is audited
        return read(session)
    session.execute(delete(RetentionRule))
    now = utcnow()
    for i, rule in enumerate(rules, start=1):
        session.add(
            RetentionRule(
                position=i,
                system_id=ids[rule.system] if rule.system is not None else None,
                branch_pattern=rule.branch,
                delete_after_days=rule.delete_after_days,
                summarise_after_days=rule.summarise_after_days,
                updated_by=by,
                updated_at=now,
            )
        )
    audit_service.record(
        session=session,
        actor=by,
        action="retention.rules.set",
        target="retention",
        detail={"from": before, "to": after},
    )
    session.flush()
    return read(session)
