"""The parts of GitHub's and GitLab's push payloads the hooks use, and the hooks' answer."""

from __future__ import annotations

from pydantic import BaseModel, Field

from benchdash.kit.validation import SafeStr

ZERO_SHA = "0" * 40


class GithubRepository(BaseModel):
    """Where the pushed repository lives, in each spelling GitHub sends."""

    clone_url: SafeStr | None = None
    ssh_url: SafeStr | None = None
    git_url: SafeStr | None = None
    html_url: SafeStr | None = None

    def urls(self) -> list[str]:
        return [u for u in (self.clone_url, self.ssh_url, self.git_url, self.html_url) if u]


class GithubPush(BaseModel):
    """A GitHub event body: a push carries `ref` and `after` (the new head)."""

    ref: SafeStr | None = Field(None, max_length=300)
    after: SafeStr | None = Field(None, max_length=64)
    deleted: bool = False
    repository: GithubRepository | None = None


class GitlabProject(BaseModel):
    """Where the pushed project lives, in each spelling GitLab sends."""

    git_http_url: SafeStr | None = None
    git_ssh_url: SafeStr | None = None
    web_url: SafeStr | None = None

    def urls(self) -> list[str]:
        return [u for u in (self.git_http_url, self.git_ssh_url, self.web_url) if u]


class GitlabPush(BaseModel):
    """A GitLab event body: a push carries `object_kind: push`, `ref` and `after`."""

    object_kind: SafeStr | None = Field(None, max_length=64)
    ref: SafeStr | None = Field(None, max_length=300)
    after: SafeStr | None = Field(None, max_length=64)
    checkout_sha: SafeStr | None = Field(None, max_length=64)
    project: GitlabProject | None = None


class HookResult(BaseModel):
    """What a webhook delivery did: the run it queued (or retargeted), or why it did nothing."""

    system: str | None = None
    run_id: int | None = Field(None, description="The queued push run of the pushed head.")
    commit: str | None = None
    retargeted: bool = Field(False, description="An untaken queued push run now runs this head.")
    ignored: str | None = Field(None, description="Why nothing was queued.")
