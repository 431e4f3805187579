"""Webhooks of git hosts: GitHub (`X-Hub-Signature-256`) and GitLab (`X-Gitlab-Token`)."""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Depends, Header, Query, Request
from pydantic import BaseModel, ValidationError

from benchdash.deps import SessionDep
from benchdash.hooks import service
from benchdash.hooks.schemas import GithubPush, GitlabPush, HookResult
from benchdash.kit.errors import InvalidInput
from benchdash.kit.responses import ERRORS

router = APIRouter(prefix="/api/v1/hooks", tags=["hooks"], responses=ERRORS)
SystemQuery = Annotated[
    str | None, Query(pattern=r"^[a-z0-9][a-z0-9-]{0,63}$", description="The system's slug.")
]
Payload = TypeVar("Payload", bound=BaseModel)


async def _raw_body(request: Request) -> bytes:
    """The body as sent: the signature is over these bytes, not a re-serialisation."""
    return await request.body()


RawBody = Annotated[bytes, Depends(_raw_body)]


def _inline(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """`schema` with each `#/$defs/X` reference replaced by X itself."""
    if ref := schema.get("$ref"):
        return _inline(defs[ref.rsplit("/", 1)[1]], defs)
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if isinstance(value, dict):
            out[key] = _inline(value, defs)
        elif isinstance(value, list):
            out[key] = [_inline(v, defs) if isinstance(v, dict) else v for v in value]
        else:
            out[key] = value
    return out


def _body_doc(model: type[BaseModel]) -> dict[str, Any]:
    """The OpenAPI request body of a hook: read raw (for the signature), documented as `model`."""
    schema = model.model_json_schema()
    defs = schema.pop("$defs", {})
    content = {"application/json": {"schema": _inline(schema, defs)}}
    return {"requestBody": {"required": True, "content": content}}


def _parse(model: type[Payload], body: bytes) -> Payload:
    try:
        return model.model_validate_json(body)
    except ValidationError as exc:
        errors = [{"loc": list(e["loc"]), "msg": e["msg"]} for e in exc.errors()]
        raise InvalidInput(
            f"the webhook body is not a {model.__name__} JSON object: {errors[0]['msg']}",
            errors=errors,
        ) from None


@router.post(
    "/github", response_model=HookResult, status_code=202, openapi_extra=_body_doc(GithubPush)
)
def github_hook(
    body: RawBody,
    session: SessionDep,
    system: SystemQuery = None,
    x_github_event: Annotated[str | None, Header()] = None,
    x_hub_signature_256: Annotated[str | None, Header()] = None,
) -> HookResult:
    """A GitHub webhook (content type application/json): a push to a followed branch queues a
    run of its head; other events are acknowledged and ignored. Signed with the system's secret."""
    payload = _parse(GithubPush, body)
    urls = [] if payload.repository is None else payload.repository.urls()
    found = service.find_system(session=session, slug=system, urls=urls)
    service.check_github(found, body, x_hub_signature_256)
    if x_github_event != "push":
        return HookResult(system=found.slug, ignored=f"event {x_github_event!r} is not a push")
    ref, sha = payload.ref, None if payload.deleted else payload.after
    return service.on_push(session=session, system=found, ref=ref, sha=sha)


@router.post(
    "/gitlab", response_model=HookResult, status_code=202, openapi_extra=_body_doc(GitlabPush)
)
def gitlab_hook(
    body: RawBody,
    session: SessionDep,
    system: SystemQuery = None,
    x_gitlab_event: Annotated[str | None, Header()] = None,
    x_gitlab_token: Annotated[str | None, Header()] = None,
) -> HookResult:
    """A GitLab webhook: a push to a followed branch queues a run of its head; other events
    are acknowledged and ignored. Its secret token is the system's secret."""
    payload = _parse(GitlabPush, body)
    urls = [] if payload.project is None else payload.project.urls()
    found = service.find_system(session=session, slug=system, urls=urls)
    service.check_gitlab(found, x_gitlab_token)
    if payload.object_kind != "push":
        kind = payload.object_kind or x_gitlab_event
        return HookResult(system=found.slug, ignored=f"event {kind!r} is not a push")
    sha = payload.after if payload.after != "0" * 40 else None
    return service.on_push(session=session, system=found, ref=payload.ref, sha=sha)
