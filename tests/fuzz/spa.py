"""The fuzz phase for what the OpenAPI document does not describe: the SPA fallback, the built
UI's files, the API docs, unknown API paths. Hypothesis generates the requests.

Paths are a known prefix (a UI route, /assets/, /api/v1/, ...) and up to six segments: Unicode
text (lone surrogates included, sent as the invalid UTF-8 they encode to), raw bytes (NUL,
`/`, `%`), long names (past the file system's 255-byte limit), dot segments. Any method, any
query string. Every answer must be below 500, carry the CSP, and be problem+json when it is
an error; a UI route's 200 must be a page or a file of the build.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from urllib.parse import quote_from_bytes

import httpx
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

PREFIXES = [
    "",
    "systems/",
    "runs/",
    "runs/1/",
    "compare/",
    "alerts/",
    "sign-in/",
    "assets/",
    "swagger-ui/",
    "api/",
    "api/v1/",
    "api/v1/systems/",
    "api/docs/",
]
METHODS = ["GET", "GET", "GET", "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
PROBLEM = "application/problem+json"
PAGE_TYPES = ("text/html", "text/javascript", "application/javascript", "text/css", "text/plain")


def _encode(text: str) -> str:
    """Percent-encode `text` as UTF-8, lone surrogates included (invalid UTF-8 on the wire)."""
    return quote_from_bytes(text.encode("utf-8", "surrogatepass"), safe="")


segments = st.one_of(
    st.text(max_size=40).map(_encode),
    st.text(min_size=60, max_size=200).map(_encode),  # 3- and 4-byte characters: past 255 bytes
    st.integers(min_value=200, max_value=1200).map(lambda n: "x" * n),
    st.binary(max_size=80).map(lambda b: quote_from_bytes(b, safe="")),
    st.sampled_from(["", ".", "..", "%2e%2e", "%2F", "index.html", "assets", "openapi.json"]),
    st.from_regex(r"[A-Za-z0-9._~-]{1,30}", fullmatch=True),
)
paths = st.builds(
    lambda prefix, parts: "/" + prefix + "/".join(parts),
    st.sampled_from(PREFIXES),
    st.lists(segments, max_size=6),
)
queries = st.one_of(
    st.just(""),
    st.text(max_size=60).map(lambda q: "?q=" + _encode(q)),
    st.binary(max_size=40).map(lambda b: "?" + quote_from_bytes(b, safe="=&")),
)


def check(method: str, path: str, response: httpx.Response) -> str | None:
    """What is wrong with `response` to `method path`, or None."""
    status = response.status_code
    kind = response.headers.get("content-type", "")
    if status >= 500:
        return f"{status} for {method} {path}: {response.text[:200]}"
    if "frame-ancestors 'none'" not in response.headers.get("content-security-policy", ""):
        return f"no CSP on {status} for {method} {path}"
    if status >= 400 and not kind.startswith(PROBLEM):
        return f"{status} for {method} {path} answered as {kind!r}, not problem+json"
    if status == 200 and not path.startswith("/api/") and not kind.startswith(PAGE_TYPES):
        return f"200 for {method} {path} answered as {kind!r}"
    return None


def _one_round(client: httpx.Client, base: str, seed: int, examples: int, found: list[str]) -> int:
    """Run `examples` generated requests with hypothesis seed `seed`; return how many ran."""
    count = 0

    @hypothesis_seed(seed)
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(method=st.sampled_from(METHODS), path=paths, query=queries)
    def probe(method: str, path: str, query: str) -> None:
        nonlocal count
        count += 1
        # An absolute URL: httpx refuses a relative one whose path starts with "//".
        response = client.request(method, base + path + query)
        problem = check(method, path + query, response)
        if problem is not None:
            found.append(problem)

    probe()
    return count


def run(
    base: str, seed: int, examples: int, seconds: float, say: Callable[[str], None] = print
) -> list[str]:
    """Fuzz the routes outside the OpenAPI document; return the failures found.

    `seconds` > 0: rounds of `examples` requests (seeds `seed`, `seed + 1`, ...) until the
    time is spent; otherwise one round."""
    found: list[str] = []
    deadline = time.monotonic() + seconds
    sent = rounds = 0
    with httpx.Client(timeout=30) as client:
        while True:
            sent += _one_round(client, base, seed + rounds, examples, found)
            rounds += 1
            if seconds <= 0 or time.monotonic() >= deadline:
                break
    say(f"SPA and static routes: {sent} requests in {rounds} round(s), {len(found)} failure(s)")
    for line in found[:20]:
        say(f"  {line}")
    return found
