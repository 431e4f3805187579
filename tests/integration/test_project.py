"""Any project, its manifest in its own repository (issue 37, first "Must show"): a tiny Python
project (tests/integration/tinyproject.py, no code of benchdash's) in a bare git repository is
registered through the API by its URL and webhook secret; a real agent is started, with no
runners/<slug>/ for it; *then* commits are pushed and signed GitHub push events posted. Each
queues a run of exactly the pushed head, which the agent fetches, runs through the generic
driver and uploads (the series is read back). Ten such runs are the series' history; a push
whose range holds a 30 % slowdown gets a fail verdict, an alert confirmed by re-runs, and the
alert's bisection over the pushed commits names the commit that slowed it. A forged signature
queues nothing. Once more over `git daemon` on 127.0.0.1.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchdash.regression.floors import MIN_HISTORY
from tests.integration.agents import TERMINAL, agents, events, get, wait_for
from tests.integration.conftest import Api
from tests.integration.tinyproject import Project, git_daemon, github_push, make_project
from tests.integration.tinyproject import set_source as put_source

SECRET = "tiny-hook-secret-0123456789abcdef"


def completed(api: Api, run_id: int, timeout: float = 120) -> dict[str, Any]:
    """The run once it ended; it must have completed."""
    wait_for(lambda: get(api, f"/api/v1/runs/{run_id}")["status"] in TERMINAL, timeout, "a run")
    run: dict[str, Any] = get(api, f"/api/v1/runs/{run_id}")
    if run["status"] != "completed":
        log = [ln for kind, d in events(api, run_id) if kind == "log" for ln in d["lines"]]
        raise AssertionError(f"run {run_id}: {run['status']}: {run['message']}\n" + "\n".join(log))
    return run


def runs_of(api: Api, slug: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = get(api, f"/api/v1/runs?system={slug}&limit=500")["items"]
    return items


def pushed_and_run(api: Api, project: Project, url: str, subject: str) -> dict[str, Any]:
    """Commit, push, post the signed event: the run it queued, completed, of exactly that SHA."""
    project.commit(subject, note=subject)
    sha = project.push()
    status, body = github_push(api, url, sha, SECRET)
    assert status == 202 and body["commit"] == sha and body["run_id"], body
    run = completed(api, int(str(body["run_id"])))
    assert (run["commit"], run["trigger"], run["branch"]) == (sha, "push", "main")
    return run


def forged_queues_nothing(api: Api, project: Project, url: str, slug: str) -> None:
    before = len(runs_of(api, slug))
    project.commit("a push whose event is forged", note="forged")
    sha = project.push()
    status, body = github_push(api, url, sha, "not-the-secret-0123456789abcdef")
    assert status == 401 and "X-Hub-Signature-256" in str(body["detail"]), body
    assert len(runs_of(api, slug)) == before


def loop_time(run: dict[str, Any]) -> dict[str, Any]:
    (m,) = [m for m in run["measurements"] if (m["benchmark"], m["metric"]) == ("loop", "time")]
    return m


def test_pushes_are_run_charted_and_a_slowdown_is_named_and_bisected(
    api: Api, tmp_path: Path
) -> None:
    slug = "tinyproj"
    project = make_project(tmp_path)
    assert put_source(api, slug, project.url, SECRET)["hook_secret_set"] is True
    with agents(api, tmp_path, system=slug, host="it-tinyproj"):
        assert get(api, f"/api/v1/systems/{slug}")["name"] == "Tiny loop"  # its benchdash.toml
        forged_queues_nothing(api, project, project.url, slug)
        history = [pushed_and_run(api, project, project.url, f"notes {i}") for i in range(10)]
        assert len(history) >= MIN_HISTORY
        log = [
            ln for kind, d in events(api, history[0]["id"]) if kind == "log" for ln in d["lines"]
        ]
        assert any("benchdash_runner.project_driver" in line for line in log), log[-20:]
        assert any(line.startswith("loop: 12 samples") for line in log), log[-20:]
        assert loop_time(history[0])["n"] == 24  # 12 samples x 2 repetitions
        points = get(api, f"/api/v1/series?system={slug}&benchmark=loop&metric=time")["points"]
        assert [p["commit"] for p in points][-10:] == [r["commit"] for r in history]
        # One push of three commits, the middle one 30 % slower.
        project.commit("notes before", note="before")
        culprit = project.commit("loop: sleep 30 % longer", factor=1.3)
        project.commit("notes after", note="after")
        head = project.push()
        status, body = github_push(api, project.url, head, SECRET)
        assert status == 202 and body["commit"] == head, body
        slow = completed(api, int(str(body["run_id"])))
        verdict = loop_time(slow)
        print(
            f"\nloop/time at {head[:12]}: {verdict['value']:.2f} ms vs baseline "
            f"{verdict['baseline']:.2f} ms ({verdict['change_pct']:+.1f} %), level "
            f"{verdict['level']} (stage {verdict['stage']}, warn floor {verdict['floor_warn']})"
        )
        assert slow["commit"] == head and verdict["level"] == "fail", verdict
        assert 20 < verdict["change_pct"] < 45, verdict

        def alert() -> dict[str, Any] | None:
            found = [
                a for a in get(api, f"/api/v1/alerts?system={slug}") if a["run_id"] == slow["id"]
            ]
            return found[0] if found else None

        opened = wait_for(alert, 180, "the alert confirmed by re-runs", every=1)
        assert opened["commit"] == head and opened["last_good_commit"] == history[-1]["commit"]
        assert (opened["benchmark"], opened["metric"]) == ("loop", "time")
        found = wait_for(
            lambda: get(api, f"/api/v1/alerts/{opened['id']}/bisections"), 60, "its bisection"
        )
        path = f"/api/v1/bisections/{found[0]['id']}"
        wait_for(lambda: get(api, path)["state"] != "running", 300, "the bisection", every=1)
        result = get(api, path)
    print(f"bisection: {result['state']}, {result['message']}")
    assert result["state"] == "found", result
    assert result["culprit"]["sha"] == culprit
    assert result["culprit"]["subject"] == "loop: sleep 30 % longer"
    assert len(result["commits"]) == 3  # the pushed range, listed from the agent's mirror


def test_a_commit_pushed_to_a_repository_served_by_git_daemon_is_run(
    api: Api, tmp_path: Path
) -> None:
    slug = "tinyproj-daemon"
    project = make_project(tmp_path)
    with git_daemon(tmp_path) as base:
        url = f"{base}/tiny.git"
        put_source(api, slug, url, SECRET)
        # The agent's token is the README's: agent + upload scopes of this system only.
        token = api.cli(
            "token", "create", "--scope", "agent", "--scope", "upload", "--system", slug
        )
        own = Api(url=api.url, database_url=api.database_url, token=token)
        with agents(own, tmp_path, system=slug, host="it-tinyproj-daemon"):
            forged_queues_nothing(api, project, url, slug)
            run = pushed_and_run(api, project, url, "a change pushed after the agent started")
            assert loop_time(run)["n"] == 24
    mirror = next(tmp_path.glob(f"work-{slug}-0/mirror.git"))
    assert Path(mirror / "config").read_text().count(url) == 1  # cloned over git://
