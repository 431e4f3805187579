"""An alert's commit range as a link into the system's repository."""

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from benchdash.systems.repository import commits_url
from tests.fixtures.api import post
from tests.fixtures.factories import auth, document, metric, token


def test_github_and_gitlab_compare_links() -> None:
    assert (
        commits_url("https://github.com/acme/cachex.git/", "abc123", "def456")
        == "https://github.com/acme/cachex/compare/abc123...def456"
    )
    assert (
        commits_url("https://gitlab.example.org/g/p", "a", "b")
        == "https://gitlab.example.org/g/p/-/compare/a...b"
    )


def test_no_link_without_a_repository_or_a_commit() -> None:
    assert commits_url(None, "a", "b") is None
    assert commits_url("https://github.com/a/b", None, "b") is None
    assert commits_url("https://github.com/a/b", "a", "") is None


def test_an_alert_links_its_commit_range_once_the_system_names_its_repository(
    client: TestClient, session: Session
) -> None:
    up = auth(token(session, "uvhttp"))
    for at in range(15):
        post(client, up, document(metric(value=100 * (1 + 0.001 * (at % 3))), at=at))
    for at in range(15, 19):
        post(client, up, document(metric(value=85.0), at=at))
    (alert,) = client.get("/api/v1/alerts").json()
    assert alert["commits_url"] is None  # no repository named yet
    admin = auth(token(session, scope="admin"))
    repo = {"repository": "https://github.com/acme/uvhttp"}
    assert client.put("/api/v1/systems/uvhttp/settings", json=repo, headers=admin).is_success
    (alert,) = client.get("/api/v1/alerts").json()
    assert alert["commits_url"] == (
        f"https://github.com/acme/uvhttp/compare/{alert['last_good_commit']}...{alert['commit']}"
    )
