"""A system's source: the git URL agents clone, the branches whose pushes queue runs, the
webhook secret. Set by an admin (audited); the secret is never shown, only that it is set."""

from __future__ import annotations

import re
from typing import Annotated
from urllib.parse import urlsplit

from pydantic import AfterValidator, BaseModel, Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from benchdash.audit import service as audit_service
from benchdash.kit.validation import check_text
from benchdash.systems import secret_box
from benchdash.systems.models import System

SCHEMES = ("https", "ssh", "git", "file")
_SCP = re.compile(r"^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:[^\s:][^\s]*$")  # git@github.com:o/r.git
_BRANCH = r"^[A-Za-z0-9._/-]+$"


def check_git_url(url: str) -> str:
    """A git URL an agent can clone: https, ssh (or user@host:path), git or file."""
    check_text(url)
    if any(c.isspace() for c in url) or any(ord(c) < 32 for c in url):
        raise ValueError("must not contain spaces or control characters")
    if _SCP.match(url):
        return url
    parts = urlsplit(url)
    if parts.scheme not in SCHEMES:
        raise ValueError(
            f"scheme {parts.scheme or '(none)'!r} is not one agents clone: use one of "
            + ", ".join(f"{s}://" for s in SCHEMES)
            + " or user@host:path"
        )
    if parts.scheme != "file" and not parts.hostname:
        raise ValueError(f"a {parts.scheme}:// URL needs a host")
    if parts.scheme == "file" and (parts.netloc not in ("", "localhost") or not parts.path):
        raise ValueError("a file:// URL needs an absolute path (file:///srv/git/project.git)")
    if parts.scheme == "https" and parts.password:
        raise ValueError("put no password in the URL: give agents a token (BENCHDASH_GIT_TOKEN)")
    return url


def check_branch(name: str) -> str:
    """A branch name git accepts (the common subset): no leading `-`, no `..`, `//` or `.lock`."""
    if name.startswith(("-", "/", ".")) or name.endswith(("/", ".", ".lock")):
        raise ValueError(f"{name!r} is not a branch name git accepts")
    if ".." in name or "//" in name:
        raise ValueError(f"{name!r} is not a branch name git accepts ('..' or '//')")
    return name


def url_key(url: str) -> str:
    """A URL's identity across spellings: host and path, lower case, without `.git` or `/`."""
    if _SCP.match(url):
        host, _, path = url.split("@", 1)[1].partition(":")
    else:
        parts = urlsplit(url)
        host, path = parts.hostname or "", parts.path
    path = path.strip("/").removesuffix(".git").strip("/")
    return f"{host.lower()}/{path.lower()}"


# The pattern says in the schema what check_git_url accepts (printable ASCII, no spaces); it is
# not enforced as a pattern, so a refused URL gets check_git_url's words, not the regex.
_GIT_URL = (
    r"^(?:(?:https|ssh|git)://(?:[A-Za-z0-9._-]+@)?[A-Za-z0-9][A-Za-z0-9.-]*(?::[0-9]{1,5})?"
    r"(?:/[!-~]*)?|file://(?:localhost)?/[!-~]*|[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:[!-9;-~][!-~]*)$"
)
GitUrl = Annotated[
    str,
    Field(max_length=500, json_schema_extra={"pattern": _GIT_URL}),
    AfterValidator(check_git_url),
]
BranchName = Annotated[
    str, Field(min_length=1, max_length=200, pattern=_BRANCH), AfterValidator(check_branch)
]


class SourceUpdate(BaseModel):
    """A system's source; `hook_secret` omitted keeps the stored one, null forgets it."""

    source_url: GitUrl | None = Field(description="The git URL agents clone; null forgets it.")
    default_branch: BranchName | None = Field(None, description="null: main.")
    followed_branches: list[BranchName] = Field(default_factory=list, max_length=50)
    hook_secret: str | None = Field(
        None,
        min_length=16,
        max_length=200,
        pattern=r"^[\x21-\x7e]+$",
        description="The webhook secret (GitHub) or token (GitLab); never returned.",
    )
    poll_interval_s: int | None = Field(None, ge=60, le=86400, description="null: no polling.")


class SourceView(BaseModel):
    """A system's source as an admin sees it: the secret only as set or not."""

    slug: str
    source_url: str | None
    default_branch: str
    followed_branches: list[str]
    hook_secret_set: bool
    poll_interval_s: int | None


def view(system: System) -> SourceView:
    """The wire form of a system's source."""
    return SourceView(
        slug=system.slug,
        source_url=system.source_url,
        default_branch=system.default_branch or "main",
        followed_branches=list(system.followed_branches or []),
        hook_secret_set=system.hook_secret is not None,
        poll_interval_s=system.poll_interval_s,
    )


def set_source(*, session: Session, system: System, body: SourceUpdate, by: str) -> SourceView:
    """Store the system's source, audited (the secret as set or not, never its value)."""
    before = view(system).model_dump(exclude={"slug"})
    system.source_url = body.source_url
    system.default_branch = body.default_branch
    system.followed_branches = sorted(set(body.followed_branches))
    system.poll_interval_s = body.poll_interval_s
    if "hook_secret" in body.model_fields_set:
        system.hook_secret = (
            None if body.hook_secret is None else secret_box.encrypt(body.hook_secret)
        )
    after = view(system).model_dump(exclude={"slug"})
    if before != after or "hook_secret" in body.model_fields_set:
        audit_service.record(
            session=session,
            actor=by,
            action="system.source",
            target=system.slug,
            detail={"from": before, "to": after},
        )
    session.flush()
    return view(system)


def find_by_url(*, session: Session, urls: list[str]) -> System | None:
    """The system whose source URL is one of `urls` (any spelling of the same repository)."""
    keys = {url_key(u) for u in urls if u}
    for system in session.scalars(select(System).where(System.source_url.is_not(None))).all():
        if system.source_url and url_key(system.source_url) in keys:
            return system
    return None
