"""Local stand-ins of the GitHub and GitLab REST APIs (only the endpoints the report uses).

Each runs a ThreadingHTTPServer in a thread, keeps its comments/notes and check runs in memory
and records every request (method, path, body) for the tests to assert on.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit


@dataclass
class Forge:
    """A stand-in's state: what it holds and every request it answered."""

    kind: str  # github | gitlab
    token: str
    url: str = ""
    comments: dict[int, dict[str, Any]] = field(default_factory=dict)
    checks: dict[int, dict[str, Any]] = field(default_factory=dict)
    statuses: list[dict[str, Any]] = field(default_factory=list)  # GitLab commit statuses
    requests: list[tuple[str, str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    next_id: int = 1000

    def calls(self, method: str, pattern: str) -> list[Any]:
        """Bodies of the recorded requests with this method whose path matches `pattern`."""
        return [b for m, p, b in self.requests if m == method and re.fullmatch(pattern, p)]

    def answer(self, method: str, path: str, query: dict[str, str], body: Any) -> tuple[int, Any]:
        with self.lock:
            self.requests.append((method, path, body))
            self.next_id += 1
            return (_github if self.kind == "github" else _gitlab)(self, method, path, query, body)


def _page(items: list[dict[str, Any]], query: dict[str, str]) -> list[dict[str, Any]]:
    size, page = int(query.get("per_page", 30)), int(query.get("page", 1))
    return items[(page - 1) * size : page * size]


def _github(f: Forge, method: str, path: str, q: dict[str, str], body: Any) -> tuple[int, Any]:
    if m := re.fullmatch(r"/repos/[^/]+/[^/]+/issues/(\d+)/comments", path):
        if method == "GET":
            return 200, _page([c for c in f.comments.values() if c["pr"] == int(m[1])], q)
        f.comments[f.next_id] = {"id": f.next_id, "pr": int(m[1]), "body": body["body"]}
        return 201, f.comments[f.next_id]
    if (m := re.fullmatch(r"/repos/[^/]+/[^/]+/issues/comments/(\d+)", path)) and method == "PATCH":
        f.comments[int(m[1])]["body"] = body["body"]
        return 200, f.comments[int(m[1])]
    if m := re.fullmatch(r"/repos/[^/]+/[^/]+/commits/(\w+)/check-runs", path):
        runs = [
            c for c in f.checks.values() if (c["head_sha"], c["name"]) == (m[1], q["check_name"])
        ]
        return 200, {"total_count": len(runs), "check_runs": runs}
    if path.endswith("/check-runs") and method == "POST":
        f.checks[f.next_id] = {**body, "id": f.next_id}
        return 201, f.checks[f.next_id]
    if (m := re.fullmatch(r"/repos/[^/]+/[^/]+/check-runs/(\d+)", path)) and method == "PATCH":
        f.checks[int(m[1])].update(body)
        return 200, f.checks[int(m[1])]
    return 404, {"message": "Not Found"}


STATES = ("pending", "running", "success", "failed", "canceled", "skipped")


def _gitlab(f: Forge, method: str, path: str, q: dict[str, str], body: Any) -> tuple[int, Any]:
    if (m := re.fullmatch(r"/api/v4/projects/([^/]+)/statuses/(\w+)", path)) and method == "POST":
        if (body or {}).get("state") not in STATES:  # as GitLab: 400 on a state it does not know
            return 400, {"error": "state does not have a valid value"}
        f.statuses.append({**body, "project": m[1], "sha": m[2], "id": f.next_id})
        return 201, f.statuses[-1]
    m = re.fullmatch(r"/api/v4/projects/([^/]+)/merge_requests/(\d+)/notes(?:/(\d+))?", path)
    if not m:
        return 404, {"message": "404 Not Found"}
    if m[3] and method == "PUT":
        f.comments[int(m[3])]["body"] = body["body"]
        return 200, f.comments[int(m[3])]
    if method == "GET":
        return 200, _page([n for n in f.comments.values() if n["mr"] == int(m[2])], q)
    f.comments[f.next_id] = {"id": f.next_id, "mr": int(m[2]), "body": body["body"]}
    return 201, f.comments[f.next_id]


def _handler(forge: Forge) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def _serve(self) -> None:
            parts = urlsplit(self.path)
            query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
            size = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(size)) if size else None
            if forge.kind == "github":
                authorised = self.headers.get("Authorization") == f"Bearer {forge.token}"
            else:
                authorised = self.headers.get("PRIVATE-TOKEN") == forge.token
            if authorised:
                status, data = forge.answer(self.command, parts.path, query, body)
            else:
                with forge.lock:
                    forge.requests.append((self.command, parts.path, body))
                status, data = 401, {"message": "Bad credentials"}
            out = json.dumps(data).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(out)))
            self.end_headers()
            self.wfile.write(out)

        do_GET = do_POST = do_PATCH = do_PUT = _serve

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


@contextmanager
def serve(kind: str, token: str) -> Iterator[Forge]:
    """Run a stand-in of `kind` (github | gitlab) on a free local port until the block ends."""
    forge = Forge(kind=kind, token=token)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(forge))
    root = "" if kind == "github" else "/api/v4"
    forge.url = f"http://127.0.0.1:{server.server_address[1]}{root}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield forge
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
