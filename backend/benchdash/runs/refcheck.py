"""A ref is checked against the system's repository before its run is queued: a typo gets a 422
naming it (and no branch of that name), not a run that fails on an agent."""

from __future__ import annotations

from sqlalchemy.orm import Session

from benchdash.kit.errors import InvalidInput
from benchdash.systems import remote
from benchdash.systems import service as system_service


def check(*, session: Session, system: str, ref: str, timeout_s: float) -> str | None:
    """Refuse a branch or tag name the repository does not have; a note when it could not be
    asked (queued anyway); None when the ref is there or is not a name to look up."""
    url = system_service.get_by_slug(session=session, slug=system).source_url
    if not url or timeout_s <= 0 or not remote.checkable(ref):
        return None
    refs = remote.ls_remote(url, timeout_s)
    if refs is None:
        return (
            f"could not read {url} within {timeout_s:g} s to check ref {ref!r}: queued anyway "
            "(an agent fails the run at once if the ref does not exist)"
        )
    if remote.resolve(refs, ref) is None:
        raise InvalidInput(
            f"ref {ref!r} is not a branch or tag of {system}'s repository ({url}): "
            "check the spelling, push it first, or pass a commit SHA",
            errors=[{"loc": ["body", "ref"], "msg": f"no branch or tag {ref!r} in {url}"}],
        )
    return None
