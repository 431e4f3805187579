"""Poll mode (issue 37, for hosts a webhook cannot come from): the tiny project's source is set
with a poll interval and no webhook at all; two API processes on one database both run the poll
loop. A commit pushed after the agent started is queued exactly once, by polling, run by the
agent through the generic driver; the polls after it queue nothing more."""

from __future__ import annotations

import json
import os
import time
import urllib.request
from pathlib import Path

from tests.integration.agents import agents, wait_for
from tests.integration.conftest import Api, start_server
from tests.integration.procs import stop
from tests.integration.test_project import completed, runs_of
from tests.integration.tinyproject import make_project

INTERVAL_S = 60  # the least a source may ask for


def put_source(api: Api, slug: str, body: dict[str, object]) -> None:
    req = urllib.request.Request(
        f"{api.url}/api/v1/systems/{slug}/source",
        data=json.dumps(body).encode(),
        method="PUT",
        headers={"Authorization": f"Bearer {api.token}", "content-type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        assert r.status == 200


def test_a_pushed_commit_is_queued_once_by_polling_across_two_api_processes(
    api: Api, tmp_path: Path
) -> None:
    slug = "tinypoll"
    project = make_project(tmp_path)
    first = project.push()
    env = {**os.environ, "DATABASE_URL": api.database_url, "BENCHDASH_SCHEDULE_GRACE_S": "0"}
    second_api, _ = start_server({**env, "BENCHDASH_REAPER_INTERVAL_S": "2"})
    try:
        put_source(api, slug, {"source_url": project.url, "poll_interval_s": INTERVAL_S})
        with agents(api, tmp_path, system=slug, host="it-tinypoll"):
            # The first poll finds main's head unmeasured: one run of it.
            wait_for(lambda: runs_of(api, slug), 60, "the first poll's run", every=1)
            (run,) = runs_of(api, slug)
            assert completed(api, run["id"])["commit"] == first
            sha = project.commit("a change no webhook announces", note="polled")
            project.push()
            pushed_at = time.monotonic()

            def run_of_sha() -> list[dict[str, object]]:
                return [r for r in runs_of(api, slug) if r["commit"] == sha]

            (new,) = wait_for(run_of_sha, INTERVAL_S + 40, "the run of the pushed commit", every=1)
            print(f"\nqueued by polling {time.monotonic() - pushed_at:.0f} s after the push")
            done = completed(api, int(str(new["id"])))
            assert (done["trigger"], done["branch"], done["commit"]) == ("push", "main", sha)
            assert done["measurements"], done
            time.sleep(INTERVAL_S + 15)  # at least one more poll by whichever process
            assert [r["commit"] for r in runs_of(api, slug)] == [sha, first]
    finally:
        stop(second_api)
