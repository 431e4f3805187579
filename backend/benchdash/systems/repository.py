"""A system's repository: where its commits live, so a commit range becomes a link."""

from __future__ import annotations

from urllib.parse import quote


def commits_url(repository: str | None, good: str | None, bad: str | None) -> str | None:
    """The repository's compare page of good...bad (GitHub, Gitea and Forgejo spell it
    `/compare/a...b`, GitLab `/-/compare/a...b`); None when anything is unknown."""
    if not repository or not good or not bad:
        return None
    base = repository.rstrip("/").removesuffix(".git")
    host = base.split("/")[2] if base.count("/") >= 2 else ""
    infix = "/-/compare/" if "gitlab" in host else "/compare/"
    return f"{base}{infix}{quote(good, safe='')}...{quote(bad, safe='')}"
