"""Push events queue runs: the signature is checked against the system's secret, a push to a
followed branch (or the default branch) queues a run of its head with the system's default
profile. A burst of pushes leaves one queued push run, retargeted to the newest head: commits
it skips stay bisectable."""

from __future__ import annotations

import hashlib
import hmac

from sqlalchemy import select, text
from sqlalchemy.orm import Session

from benchdash.hooks.schemas import ZERO_SHA, HookResult
from benchdash.kit.errors import NotFound, Unauthorized
from benchdash.runs import lifecycle
from benchdash.runs.models import Run
from benchdash.runs.states import RunStatus, RunTrigger
from benchdash.systems import secret_box, source
from benchdash.systems import service as system_service
from benchdash.systems.models import System

SHA_CHARS = set("0123456789abcdef")
_LOCK = text("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))")


def find_system(*, session: Session, slug: str | None, urls: list[str]) -> System:
    """The system named by `?system=`, else the one whose source URL the payload names."""
    if slug is not None:
        return system_service.get_by_slug(session=session, slug=slug)
    system = source.find_by_url(session=session, urls=urls)
    if system is None:
        raise NotFound(
            "no system has this repository as its source: set it (PUT /api/v1/systems/"
            "{slug}/source) or add ?system=<slug> to the webhook URL"
        )
    return system


def _secret(system: System) -> str:
    plain = None if system.hook_secret is None else secret_box.decrypt(system.hook_secret)
    if plain is None:
        raise Unauthorized(f"system {system.slug!r} has no webhook secret set (PUT its /source)")
    return plain


def check_github(system: System, body: bytes, signature: str | None) -> None:
    """X-Hub-Signature-256 must be sha256=<HMAC-SHA256 of the raw body under the secret>."""
    expected = "sha256=" + hmac.new(_secret(system).encode(), body, hashlib.sha256).hexdigest()
    if signature is None or not hmac.compare_digest(expected.encode(), signature.encode()):
        raise Unauthorized("X-Hub-Signature-256 is missing or does not match the system's secret")


def check_gitlab(system: System, token: str | None) -> None:
    """X-Gitlab-Token must be the system's secret."""
    if token is None or not hmac.compare_digest(_secret(system).encode(), token.encode()):
        raise Unauthorized("X-Gitlab-Token is missing or is not the system's secret")


def on_push(*, session: Session, system: System, ref: str | None, sha: str | None) -> HookResult:
    """Queue (or retarget) the push run of `sha` if `ref` is a followed branch."""
    ignored = HookResult(system=system.slug, commit=sha)
    if not ref or not ref.startswith("refs/heads/"):
        return ignored.model_copy(update={"ignored": f"{ref!r} is not a branch"})
    branch = ref.removeprefix("refs/heads/")
    default = system.default_branch or "main"
    if branch != default and branch not in (system.followed_branches or []):
        return ignored.model_copy(update={"ignored": f"branch {branch!r} is not followed"})
    if not sha or sha == ZERO_SHA or len(sha) != 40 or not set(sha) <= SHA_CHARS:
        return ignored.model_copy(update={"ignored": f"no new head on {branch!r} (deleted?)"})
    session.execute(_LOCK, {"key": f"benchdash-push:{system.slug}:{branch}"})
    runs = select(Run).where(Run.system_id == system.id, Run.trigger == RunTrigger.PUSH)
    if session.scalar(runs.where(Run.commit == sha).limit(1)) is not None:
        return ignored.model_copy(update={"ignored": f"{sha} already has a push run"})
    br = system_service.find_branch(session=session, system_id=system.id, name=branch)
    waiting = (
        None
        if br is None
        else session.scalar(
            runs.where(Run.branch_id == br.id, Run.status == RunStatus.QUEUED, Run.agent.is_(None))
            .order_by(Run.id.desc())
            .limit(1)
            .with_for_update()
        )
    )
    if waiting is not None and waiting.status == RunStatus.QUEUED and waiting.agent is None:
        old = waiting.commit
        waiting.ref, waiting.commit = sha, sha
        lifecycle.add_event(
            session=session,
            run_id=waiting.id,
            kind="log",
            data={"lines": [f"retargeted from {old} to {sha}: a newer push to {branch}"]},
        )
        session.flush()
        return HookResult(system=system.slug, run_id=waiting.id, commit=sha, retargeted=True)
    schedule = (system.manifest or {}).get("schedule") or {}
    run = lifecycle.trigger(
        session=session,
        system=system.slug,
        ref=sha,
        branch=branch,
        profile=str(schedule.get("profile") or "quick"),
        benchmarks=None,
        trigger_kind=RunTrigger.PUSH,
    )
    return HookResult(system=system.slug, run_id=run.id, commit=sha)
